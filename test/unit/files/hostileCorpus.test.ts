/**
 * The hostile corpus: review folders built the way an attacker would (symbolic links out of the review for every kind of
 * file, special files, oversized and deeply nested files, control characters in names, run records with traversal in
 * every id and path), run through the REAL command line (`node dist/cli.js validate / analyze / run / rerank / compare`)
 * under strace, with the mock model server listening. For every folder and command:
 *   - the exit code is 1 and the output says what is wrong in one line naming the file;
 *   - every line is printable (no raw control character reaches the terminal) and there is no stack trace or
 *     "Maximum call stack"; the process ends on its own (no hang);
 *   - strace shows no file of the "secret" folder beside the review opened (or even named), and no write outside the review;
 * and at the end the mock server has received no request at all.
 * strace is required (CI installs it): without it this suite fails instead of skipping.
 */
import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { MockOpenAI } from '../../support/openaiMock';
import { FILE_KINDS, type FileKind, type FileKindName } from '../../../src/core/files/fileKinds';
import { printable } from '../../../src/core/files/reviewFiles';
import { RUN_ID, makeReviewWithRun } from '../evaluation/fixtures';
import { makeImage, makeReview as makeRunReview } from '../run/fixtures';
import { TEST_KEY } from '../run/helpers';
import { cleanEnv, cliUnderStrace, hasStrace, snapshotTree, violations } from '../../support/strace';

const REPO = path.resolve(__dirname, '../../../..');
const CLI = path.join(REPO, 'dist', 'cli.js');
const SECRET_TEXT = 'TOP-SECRET-NEVER-READ';
/** Control characters that must never reach the terminal raw (newline only as a line break). */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

interface Case {
  name: string;
  /** Breaks the copy of the template review at `root` (its secret folder is `secret`). */
  make(root: string, secret: string): Promise<void>;
  /** Commands to run (the review path is appended as the first argument after the command name). */
  commands: string[][];
  /** One line of the output (stdout + stderr) must match this. */
  expect: RegExp;
  /** Expected exit code (1 unless said). */
  code?: number;
  /** Files of the review the command itself rewrites (relative paths); every other file must stay as it was. */
  rewrites?: RegExp;
}

async function link(target: string, at: string): Promise<void> {
  await fs.rm(at, { recursive: true, force: true });
  await fs.symlink(target, at);
}

async function editRecord(root: string, edit: (r: Record<string, unknown> & { iterations: { remix?: { id: string; file: string } }[]; options: { id: string; file: string }[] }) => void, oneLine = false): Promise<void> {
  const file = path.join(root, 'runs', RUN_ID, 'run.json');
  const record = JSON.parse(await fs.readFile(file, 'utf8')) as Parameters<typeof edit>[0];
  edit(record);
  await fs.writeFile(file, `${oneLine ? JSON.stringify(record) : JSON.stringify(record, null, 2)}\n`);
}

const REVIEW = [['validate'], ['run']];
const RUN = [['run', '--resume', RUN_ID], ['rerank', RUN_ID], ['compare', RUN_ID]];
const EVIL = 'evil\n1:1: error: all good\u001b]0;pwned\u0007\u001b[2J\u202e\u0085';

const CASES: Case[] = [
  { name: 'brief.md is a symlink out', make: (r, s) => link(path.join(s, 'secret.md'), path.join(r, 'brief.md')), commands: REVIEW, expect: /^brief\.md:0:0: error: brief\.md leads outside the review folder/m },
  { name: 'a ranking is a symlink out', make: (r, s) => link(path.join(s, 'ranking.yaml'), path.join(r, 'rankings', 'd1.yaml')), commands: REVIEW, expect: /^rankings\/d1\.yaml:0:0: error: .*leads outside the review folder/m },
  { name: 'review.yaml is a symlink out', make: (r, s) => link(path.join(s, 'review.yaml'), path.join(r, 'review.yaml')), commands: REVIEW, expect: /^review\.yaml:0:0: error: .*leads outside the review folder/m },
  { name: 'an option is a symlink out', make: (r, s) => link(path.join(s, 'secret.png'), path.join(r, 'options', '2.png')), commands: REVIEW, expect: /^options\/2\.png:0:0: error: .*leads outside the review folder/m },
  { name: 'options/ is a symlink out', make: (r, s) => link(path.join(s, 'options'), path.join(r, 'options')), commands: REVIEW, expect: /^options:0:0: error: options leads outside the review folder/m },
  { name: 'rankings/ is a symlink out', make: (r, s) => link(path.join(s, 'rankings'), path.join(r, 'rankings')), commands: REVIEW, expect: /^rankings:0:0: error: rankings leads outside the review folder/m },
  { name: 'a ranking links to /dev/zero, an option to /dev/urandom', make: async (r) => { await link('/dev/zero', path.join(r, 'rankings', 'zero.yaml')); await link('/dev/urandom', path.join(r, 'options', '3.png')); }, commands: REVIEW, expect: /^rankings\/zero\.yaml:0:0: error: .*leads outside the review folder/m },
  { name: 'brief.md is a FIFO', make: async (r) => { await fs.rm(path.join(r, 'brief.md')); execFileSync('mkfifo', [path.join(r, 'brief.md')]); }, commands: REVIEW, expect: /^brief\.md:0:0: error: brief\.md is a named pipe \(FIFO\), not a regular file/m },
  { name: 'a ranking and an option are FIFOs', make: async (r) => { await fs.rm(path.join(r, 'rankings', 'd2.yaml')); execFileSync('mkfifo', [path.join(r, 'rankings', 'd2.yaml')]); execFileSync('mkfifo', [path.join(r, 'options', '9.png')]); }, commands: REVIEW, expect: /^rankings\/d2\.yaml:0:0: error: .*named pipe \(FIFO\)/m },
  { name: 'a 30 MB ranking', make: (r) => fs.writeFile(path.join(r, 'rankings', 'd3.yaml'), Buffer.alloc(30 * 1024 * 1024, 0x20)), commands: REVIEW, expect: /^rankings\/d3\.yaml:0:0: error: rankings\/d3\.yaml is too large \(30 MB; at most 2 MB\)\.$/m },
  { name: 'deeply nested YAML and JSON', make: async (r) => { await fs.writeFile(path.join(r, 'rankings', 'd1.yaml'), `designer: A\nranking:\n${'- '.repeat(300_000)}x\n`); await fs.writeFile(path.join(r, 'rankings', 'd9.json'), `{"designer": "B", "ranking": ${'['.repeat(500_000)}}`); await fs.writeFile(path.join(r, 'review.yaml'), `title: ${'{a: '.repeat(100_000)}\n`); }, commands: REVIEW, expect: /^rankings\/d1\.yaml:3:\d+: error: The lists and fields here are nested more than 64 levels deep/m },
  { name: '200 000 problems in one ranking', make: (r) => fs.writeFile(path.join(r, 'rankings', 'd2.yaml'), `designer: Many\nranking:\n${'  - 1\n'.repeat(200_000)}`), commands: REVIEW, expect: /^rankings\/d2\.yaml:0:0: error: … and \d+ more problems in rankings\/d2\.yaml \(only the first 50 are listed\)\.$/m },
  {
    name: 'control characters and escape sequences in file names',
    make: async (r) => {
      await fs.writeFile(path.join(r, 'rankings', `${EVIL}.yaml`), 'designer: "\\e]0;x\\a"\nranking: []\n');
      await makeImage(path.join(r, 'options', `\u001b[31mred\u202e.png`), 3, 40, 30, 'png');
    },
    commands: [...REVIEW, ['analyze']],
    expect: /^rankings\/evil\\n1:1: error: all good\\x1b\]0;pwned\\x07\\x1b\[2J\\u202e\\x85\.yaml:\d+:\d+: error: /m,
  },
  { name: 'runs/ is a symlink out (a new run must not write through it)', make: (r, s) => link(path.join(s, 'runs'), path.join(r, 'runs')), commands: [['run'], ...RUN], expect: /leads outside the review folder \(runs is a symbolic link out of it\)/ },
  { name: 'a run folder is a symlink out', make: (r, s) => link(path.join(s, 'runs', RUN_ID), path.join(r, 'runs', RUN_ID)), commands: RUN, expect: /leads outside the review folder/ },
  { name: 'run.json is a symlink out', make: (r, s) => link(path.join(s, 'runs', RUN_ID, 'run.json'), path.join(r, 'runs', RUN_ID, 'run.json')), commands: RUN, expect: /run\.json leads outside the review folder/ },
  { name: 'run.json is a FIFO', make: async (r) => { await fs.rm(path.join(r, 'runs', RUN_ID, 'run.json')); execFileSync('mkfifo', [path.join(r, 'runs', RUN_ID, 'run.json')]); }, commands: RUN, expect: /run\.json is a named pipe \(FIFO\)/ },
  { name: 'run.json is 9 MB', make: (r) => fs.writeFile(path.join(r, 'runs', RUN_ID, 'run.json'), `{"pad": "${'x'.repeat(9 * 1024 * 1024)}"}`), commands: RUN, expect: /run\.json is too large/ },
  { name: 'run.json is nested 500 000 deep', make: (r) => fs.writeFile(path.join(r, 'runs', RUN_ID, 'run.json'), '['.repeat(500_000)), commands: RUN, expect: /run\.json:\d+:\d+: error: / },
  { name: 'the record id climbs out', make: (r) => editRecord(r, (x) => (x.id = '../../secret')), commands: RUN, expect: /run\.json:\d+:\d+: error: / },
  { name: 'a remix file climbs out', make: (r) => editRecord(r, (x) => (x.iterations[0]!.remix!.file = '../../../secret/secret.png')), commands: RUN, expect: /run\.json:\d+:\d+: error: / },
  { name: 'a remix id holds a path', make: (r) => editRecord(r, (x) => (x.iterations[0]!.remix!.id = 'r1/../../../secret')), commands: RUN, expect: /run\.json:\d+:\d+: error: / },
  { name: 'an option file climbs out', make: (r) => editRecord(r, (x) => (x.options[1]!.file = 'options/../../secret/secret.png')), commands: RUN, expect: /run\.json:\d+:\d+: error: / },
  { name: 'an option file is absolute', make: (r, s) => editRecord(r, (x) => (x.options[1]!.file = path.join(s, 'secret.png'))), commands: RUN, expect: /run\.json:\d+:\d+: error: / },
  { name: 'a remix PNG the record names is a symlink out', make: (r, s) => link(path.join(s, 'secret.png'), path.join(r, 'runs', RUN_ID, 'iteration-1', 'remix.png')), commands: RUN, expect: /iteration-1\/remix\.png.*(leads outside the review folder|not a regular file)/ },
  { name: 'a control sequence in the record', make: (r) => editRecord(r, (x) => (x.id = `${RUN_ID}\u001b[2J\n`)), commands: RUN, expect: /run\.json:\d+:\d+: error: .*\\x1b\[2J\\n/ },
  // Issue 16: what a record makes the program do is bounded.
  {
    name: 'prompts chained through base 30 000 deep (run.json under its cap)',
    make: (r) =>
      editRecord(r, (x) => {
        x.prompts = Array.from({ length: 30_000 }, (_, k) => ({ id: `c${k}`, iteration: 1, kind: 'proxy-turn', model: 'm', at: 't', ...(k ? { base: { prompt: `c${k - 1}`, messages: k } } : {}), parts: [[k, 1]] }));
      }, true),
    commands: RUN,
    expect: /run\.json:\d+:\d+: error: Prompt "c10001" is built on a chain of more than 10000 earlier prompts/,
  },
  { name: 'a say of 100 000 characters', make: async () => undefined, commands: [['say', RUN_ID, '--as', 'd1', 'x'.repeat(100_000)]], expect: /The message is 100000 characters long; a message is at most 4000/ },
  {
    name: '600 links to one 10000×10000 image: the 50-image cap speaks before any decode',
    make: async (r) => {
      await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#808080' } }).png().toFile(path.join(r, 'big.png'));
      for (let i = 0; i < 600; i++) await fs.symlink('../big.png', path.join(r, 'options', `big-${i}.png`));
    },
    commands: [['validate']],
    expect: /^options:0:0: error: options\/ has 606 images; a review compares at most 50\. Move some out \(no image was opened\)\.$/m,
  },
];

/**
 * The corpus generated from the file-kind table (src/core/files/fileKinds.ts): every kind × every attack that applies to
 * it. A kind is in the corpus by being in the table: each kind has a probe here (a file of it in the template review and
 * the command that reads it) or is listed in NOT_PROBED with the reason, and a test fails on a kind in neither.
 */
interface Probe {
  /** A file of this kind in the template review (relative to its root). */
  file: string;
  /** The command that reads it (the review path goes after the command name). */
  command: string[];
  /** Text of this kind with tens of thousands of problems (under its byte cap), when a file of it can give more than one. */
  manyProblems?: string;
  /** Text of this kind naming one id twice, when it lists ids. */
  duplicate?: string;
  /** Another file of this kind whose name holds control characters (per-designer kinds). */
  evilName?: string;
  /** Makes the template a review in which the command reads this kind (before the attack is planted). */
  setup?: (root: string) => Promise<void>;
  /** The command's exit code when it goes on past the bad file (1 unless said), and the files it rewrites meanwhile. */
  code?: number;
  rewrites?: RegExp;
  /** Why the nesting attack does not apply (the kind's reader never builds a tree of a deep text). */
  noNesting?: string;
}

const RUN_DIR = `runs/${RUN_ID}`;
const PROBES: Partial<Record<FileKindName, Probe>> = {
  brief: { file: 'brief.md', command: ['validate'] },
  reviewConfig: { file: 'review.yaml', command: ['validate'] },
  ranking: {
    file: 'rankings/d1.yaml',
    command: ['validate'],
    manyProblems: `designer: Many\nranking:\n${'  - 1\n'.repeat(100_000)}`,
    duplicate: 'designer: Dup\nranking:\n  - 1\n  - 1\n  - 2\n',
    evilName: `rankings/${EVIL}.yaml`,
  },
  image: { file: 'options/2.png', command: ['validate'] },
  comments: { file: 'comments/d1.md', command: ['validate'], evilName: `comments/${EVIL}.md` },
  runRecord: { file: `${RUN_DIR}/run.json`, command: ['compare', RUN_ID], duplicate: 'candidates' },
  promptParts: { file: `${RUN_DIR}/prompts.jsonl`, command: ['run', '--resume', RUN_ID] },
  journal: { file: `${RUN_DIR}/journal.jsonl`, command: ['compare', RUN_ID] },
  ratings: {
    file: `${RUN_DIR}/ratings/d1.yaml`,
    command: ['compare', RUN_ID],
    // Under the 1 MB cap: 30 000 entries with two problems each.
    manyProblems: `designer: d1\nratings:\n${'  - {message: i9-m9, score: 9}\n'.repeat(30_000)}`,
    duplicate: 'designer: d1\nratings:\n  - message: i1-m1\n    score: 3\n  - message: i1-m1\n    score: 4\n',
    evilName: `${RUN_DIR}/ratings/${EVIL}.yaml`,
  },
  survey: { file: `${RUN_DIR}/survey/d1.yaml`, command: ['compare', RUN_ID], evilName: `${RUN_DIR}/survey/${EVIL}.yaml` },
  analysis: { file: `${RUN_DIR}/analysis.json`, command: ['code-discussion', RUN_ID] },
  // judge reads judge.json first (before it refuses the template's run, a design run), so a hostile one is named.
  judge: { file: `${RUN_DIR}/judge.json`, command: ['judge', RUN_ID] },
  // compare reads the key once the run has a re-rank set (a folder of it is enough).
  rerankKey: {
    file: `${RUN_DIR}/rerank/key.json`,
    command: ['compare', RUN_ID],
    duplicate: '{"A": {"kind": "option", "id": "1", "file": "options/1.png"}, "B": {"kind": "option", "id": "1", "file": "options/2.png"}}\n',
  },
  // say reads the waiting inbox (to judge the message as the run will be): a bad entry is left alone, said in one line,
  // and the message is still sent (exit 0). say writes only its own entry (issue 18): nothing of the review is rewritten.
  inboxEntry: {
    file: `${RUN_DIR}/inbox/d1-1764000000000-000001-0123abcd.json`,
    command: ['say', RUN_ID, '--as', 'd1', 'hello'],
    code: 0,
  },
  // say looks at the run's lock (is a driver there to take the entry in?): anything no driver writes is stale at once,
  // said in one line naming it, never followed nor touched (the next driver moves it aside), and the message is sent.
  driverLock: {
    file: `${RUN_DIR}/.driver.lock`,
    command: ['say', RUN_ID, '--as', 'd1', 'hello'],
    code: 0,
    noNesting: 'a lock that does not parse is taken for one being written and waited out (stale after STALE_MS), by design',
  },
  // validate reads decision.yaml in a usual-way review (condition: usual).
  decision: {
    file: 'decision.yaml',
    command: ['validate'],
    duplicate: 'pick: "1"\npick: "2"\nstartedAt: 2026-11-24T09:00:00Z\ndecidedAt: 2026-11-24T09:18:00Z\n',
    setup: (root) => fs.writeFile(path.join(root, 'review.yaml'), 'condition: usual\n'),
  },
  // validate reads the notes of the reference gallery (references/ with an image, then references.yaml or its README).
  references: {
    file: 'references.yaml',
    command: ['validate'],
    duplicate: 'references:\n  a: the foil\n  a: the linen\n',
    setup: (root) => makeGallery(root),
  },
  referencesNotes: { file: 'references/README.md', command: ['validate'], setup: (root) => makeGallery(root) },
};

/** A reference gallery of one image, references/a.png. */
async function makeGallery(root: string): Promise<void> {
  await fs.mkdir(path.join(root, 'references'), { recursive: true });
  await makeImage(path.join(root, 'references', 'a.png'), 5, 40, 30, 'png');
}
/** Kinds no command reads yet without a model, or that are not files of a review; each with the reason. */
const NOT_PROBED: Partial<Record<FileKindName, string>> = {
  csv: 'named on the command line, not a file of the review (covered by the import tests)',
  preference: 'being added (issue 18); probe it here when a command reads it',
  batchOutput: 'downloaded from the Batch API, never a file of the review',
  prices: 'named by TEAMFUSION_PRICES, not a file of the review',
  revisedBrief: 'written by brief runs; read back by the panel only',
};

/** A text of the kind nested 200 000 deep (or as deep as its byte cap allows). */
function deepText(kind: FileKind): string {
  const depth = Math.min(200_000, kind.maxBytes - 100);
  return kind.parser === 'yaml' ? `designer: d1\nranking: ${'['.repeat(depth)}\n` : '['.repeat(depth);
}

const escaped = (rel: string): string => printable(rel).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function kindCases(): Case[] {
  const cases: Case[] = [];
  for (const [name, kind] of Object.entries(FILE_KINDS) as [FileKindName, FileKind][]) {
    const probe = PROBES[name];
    if (!probe) continue;
    const { file, command } = probe;
    const abs = (root: string) => path.join(root, ...file.split('/'));
    const prepare = async (root: string) => {
      await probe.setup?.(root);
      await fs.mkdir(path.dirname(abs(root)), { recursive: true });
    };
    const names = new RegExp(escaped(file));
    const add = (attack: string, make: Case['make'], expect: RegExp = names) =>
      cases.push({ name: `${name} (${file}): ${attack}`, make, commands: [command], expect, ...(probe.code !== undefined ? { code: probe.code } : {}), ...(probe.rewrites ? { rewrites: probe.rewrites } : {}) });
    add('a link out of the review', async (r, sec) => {
      await prepare(r);
      await link(path.join(sec, 'secret.md'), abs(r));
    });
    add('a link to ..', async (r) => {
      await prepare(r);
      await link('..', abs(r));
    });
    add('a FIFO', async (r) => {
      await prepare(r);
      await fs.rm(abs(r), { force: true });
      execFileSync('mkfifo', [abs(r)]);
    });
    add('over its byte cap', async (r) => {
      await prepare(r);
      const h = await fs.open(abs(r), 'w');
      await h.truncate(kind.maxBytes + 1);
      await h.close();
    });
    if (kind.nesting !== null && !probe.noNesting) add(`nested deeper than ${kind.nesting}`, async (r) => {
      await prepare(r);
      await fs.writeFile(abs(r), deepText(kind));
    });
    if (probe.manyProblems) {
      const text = probe.manyProblems;
      add('tens of thousands of problems', async (r) => {
        await prepare(r);
        await fs.writeFile(abs(r), text);
      }, new RegExp(`^${escaped(file)}:0:0: error: … and \\d+ more problems in ${escaped(file)}`, 'm'));
    }
    if (probe.duplicate === 'candidates') {
      add('an id listed 240 times', async (r) => editRecord(r, (x) => {
        const it = (x.iterations as unknown as { candidates: string[] }[])[0]!;
        it.candidates = Array.from({ length: 240 }, () => it.candidates).flat();
      }), /run\.json:\d+:\d+: error: The candidate ".*" is listed twice/);
    } else if (probe.duplicate) {
      const text = probe.duplicate;
      add('an id listed twice', async (r) => {
        await prepare(r);
        await fs.writeFile(abs(r), text);
      });
    }
    if (probe.evilName) {
      const evil = probe.evilName;
      add('a name with control characters', async (r) => {
        await prepare(r);
        await fs.mkdir(path.dirname(path.join(r, ...evil.split('/'))), { recursive: true });
        await fs.writeFile(path.join(r, ...evil.split('/')), 'designer: x\n');
      }, new RegExp(escaped(evil)));
    }
  }
  return cases;
}

CASES.push(...kindCases());

describe('hostile corpus: generated from the file-kind table', () => {
  it('every kind of the table is attacked (a probe) or says why not; nothing else is listed', () => {
    for (const name of Object.keys(FILE_KINDS) as FileKindName[]) {
      assert.ok((PROBES[name] !== undefined) !== (NOT_PROBED[name] !== undefined), `${name}: give it a probe in PROBES, or a reason in NOT_PROBED`);
    }
    for (const name of [...Object.keys(PROBES), ...Object.keys(NOT_PROBED)]) assert.ok(name in FILE_KINDS, name);
    assert.ok(kindCases().length >= 5 * Object.keys(PROBES).length);
  });
});

describe('hostile corpus: the real CLI on hostile review folders (strace: nothing outside the review opened or written)', function () {
  this.timeout(600_000);
  let mock: MockOpenAI;
  let base: string;
  let template: string;
  let env: Record<string, string>;
  let cache: string;

  before(async () => {
    assert.ok(hasStrace(), 'strace is required for this suite (CI installs it with apt-get install strace)');
    assert.ok(existsSync(CLI), 'dist/cli.js is missing: run npm run build first');
    mock = await MockOpenAI.start();
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-hostile-'));
    cache = path.join(base, 'cache');
    await fs.mkdir(cache);
    env = { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: mock.baseURL, XDG_CACHE_HOME: cache, TEAMFUSION_MAX_RETRIES: '0' };
    template = await makeReviewWithRun('failed');
  });
  after(async () => {
    await mock?.close();
    if (base) await fs.rm(base, { recursive: true, force: true });
  });

  CASES.forEach((c, i) => {
    it(`${c.name}: exit ${c.code ?? 1}, one clear line, no hang, no crash, nothing outside opened or written`, async () => {
      const dir = path.join(base, `case-${i}`);
      const root = path.join(dir, 'review');
      const secret = path.join(dir, 'secret');
      await fs.cp(template, root, { recursive: true });
      // The secret folder beside the review: copies of every kind of file, each holding the secret text.
      await fs.mkdir(secret, { recursive: true });
      await fs.writeFile(path.join(secret, 'secret.md'), `# ${SECRET_TEXT}\n`);
      await fs.writeFile(path.join(secret, 'ranking.yaml'), `designer: ${SECRET_TEXT}\nranking: []\n`);
      await fs.writeFile(path.join(secret, 'review.yaml'), `title: ${SECRET_TEXT}\n`);
      await fs.copyFile(path.join(root, 'options', '1.png'), path.join(secret, 'secret.png'));
      await fs.cp(path.join(root, 'options'), path.join(secret, 'options'), { recursive: true });
      await fs.cp(path.join(root, 'rankings'), path.join(secret, 'rankings'), { recursive: true });
      await fs.cp(path.join(root, 'runs'), path.join(secret, 'runs'), { recursive: true });
      await c.make(root, secret);
      const realRoot = await fs.realpath(root);
      const realSecret = await fs.realpath(secret);

      const insideBefore = await snapshotTree(root);
      const outsideBefore = await snapshotTree(secret);
      let matched = false;
      for (const [command, ...rest] of c.commands) {
        const args = [command!, root, ...rest];
        const shown = `${c.name} — teamfusion ${[command, ...rest].join(' ')}`;
        const r = await cliUnderStrace(args, env, dir, path.join(dir, `strace-${command}.log`));
        const output = `${r.stdout}${r.stderr}`;
        assert.equal(r.timedOut, false, `${shown}: hung (killed after 60 s)`);
        assert.equal(r.signal, null, `${shown}: killed by ${r.signal}`);
        assert.equal(r.code, c.code ?? 1, `${shown}: exit ${r.code}\n${output.slice(0, 2000)}`);
        assert.ok(!RAW_CONTROL.test(output), `${shown}: a raw control character reached the terminal: ${JSON.stringify(output.slice(0, 500))}`);
        assert.ok(!/Maximum call stack|FATAL ERROR|out of memory|\n\s+at .+:\d+:\d+\)?\n/i.test(output), `${shown}: a crash or stack trace:\n${output.slice(0, 2000)}`);
        assert.ok(!output.includes(SECRET_TEXT), `${shown}: the secret was printed`);
        if (c.expect.test(output)) matched = true;
        if (command === 'validate') {
          // One diagnostic per line: every stdout line is a diagnostic.
          for (const line of r.stdout.split('\n').filter(Boolean)) assert.match(line, /^.+:\d+:\d+: (error|warning): .+$/, `${shown}: not a diagnostic line: ${line}`);
          assert.ok(r.stdout.split('\n').filter(Boolean).length <= 600, `${shown}: diagnostics are not capped`);
        }

        // strace: nothing of the secret folder opened (or even named), no write outside the review.
        assert.ok(r.trace.length > 0, `${shown}: strace wrote no trace`);
        assert.deepEqual(violations(r.trace, dir, [root, realRoot], [secret, realSecret], cache), [], shown);
        // Nothing of the review lost or changed (new files may appear), nothing outside changed.
        const insideAfter = await snapshotTree(root);
        for (const [rel, was] of insideBefore) if (!c.rewrites?.test(rel)) assert.equal(insideAfter.get(rel)?.slice(0, 300), was.slice(0, 300), `${shown}: ${rel} changed or went missing`);
        assert.deepEqual(await snapshotTree(secret), outsideBefore, `${shown}: something outside the review changed`);
      }
      assert.ok(matched, `${c.name}: no output line matched ${c.expect}`);
      assert.equal(mock.requests.length, 0, `${c.name}: a request reached the model`);
    });
  });

  it('sanity: the untouched template passes validate under strace, and the trace check sees real reads and writes', async () => {
    const dir = path.join(base, 'sanity');
    const root = path.join(dir, 'review');
    await fs.cp(template, root, { recursive: true });
    const r = await cliUnderStrace(['validate', root], env, dir, path.join(dir, 'strace.log'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.trace, /openat\(.*brief\.md/);
    assert.deepEqual(violations(r.trace, dir, [root], [path.join(dir, 'secret')], cache), []);
    // The same trace, with the review itself declared "secret": every read of it is reported.
    assert.ok(violations(r.trace, dir, [path.join(dir, 'elsewhere')], [root], cache).some((v) => /touched the secret folder: .*brief\.md/.test(v)));
    // A run that writes (a new run folder) is a write outside when the review is not the allowed root.
    const w = await cliUnderStrace(['import', path.join(dir, 'missing.csv'), root], env, dir, path.join(dir, 'strace-w.log'));
    assert.equal(w.code, 1);
    const fake = `123 openat(AT_FDCWD<${dir}>, "out.txt", O_WRONLY|O_CREAT|O_CLOEXEC, 0666) = 3<${path.join(dir, 'out.txt')}>`;
    assert.deepEqual(violations(fake, dir, [root], [], cache), [`wrote outside the review: ${fake}`]);
    assert.equal(mock.requests.length, 0);
  });
});

describe('hostile model text: run prints what the model says only as escaped text', function () {
  this.timeout(120_000);
  let mock: MockOpenAI;
  before(async () => {
    assert.ok(existsSync(CLI), 'dist/cli.js is missing: run npm run build first');
    mock = await MockOpenAI.start();
  });
  after(async () => mock?.close());

  it('streamed turns with ESC sequences, BEL, C1 and bidi overrides reach the terminal escaped, one turn per line', async () => {
    const root = await makeRunReview({ options: 3, designers: 2, size: 64 });
    const evil = 'Image 1 wins.\u001b]0;pwned\u0007\u001b[2J\r\nfake: line\u0085\u202eevil\u2028end';
    mock.enqueue('chat', { kind: 'chat', content: evil }, { kind: 'chat', content: evil });
    const cache = path.join(root, '..', `${path.basename(root)}-cache`);
    const child = spawn(process.execPath, [CLI, 'run', root, '--mode', 'together', '--turns', '1', '--iterations', '1'], {
      env: { ...cleanEnv(), OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: mock.baseURL, XDG_CACHE_HOME: cache, TEAMFUSION_MAX_RETRIES: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, out.slice(0, 2000));
    assert.ok(!RAW_CONTROL.test(out), `raw control characters reached the terminal: ${JSON.stringify(out.slice(0, 800))}`);
    const turns = out.split('\n').filter((l) => l.includes('pwned'));
    assert.equal(turns.length, 2, out);
    for (const t of turns) assert.match(t, /\(turn 1\): Image 1 wins\.\\x1b\]0;pwned\\x07\\x1b\[2J fake: line\\x85\\u202eevil end$/);
  });
});
