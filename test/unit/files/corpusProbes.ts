/**
 * The hostile corpus generated from the file-kind table (src/core/files/fileKinds.ts). Every kind of the table has an
 * entry here — the type is `{ [kind in FileKindName]: … }`, so a kind added to the table does not compile until it has
 * one — and that entry is either a probe (a file of the kind in a template review and the command that reads it) or a
 * reason it is not a file a command reads yet. A test (hostileCorpus.test.ts) fails when a kind "not read yet" is read
 * by something in src/, naming the kind: a kind cannot skip the corpus by being wired to a command later.
 *
 * Every probe × every attack: {link out, link to .., FIFO, over its byte cap, nested too deep, tens of thousands of
 * problems, an id twice, control characters in a name}. An attack that cannot apply to a kind says why, in
 * `notApplicable`; a probe must give each attack text or a reason (checked by a test).
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { FILE_KINDS, type FileKind, type FileKindName } from '../../../src/core/files/fileKinds';
import { printable } from '../../../src/core/kernel/text';
import { makeImage } from '../run/fixtures';

/** The review a case starts from: a design review with a failed run, or a completed brief run with its blind pair. */
export type Template = 'design' | 'brief';

export const ATTACKS = ['linkOut', 'linkUp', 'fifo', 'oversized', 'deep', 'manyProblems', 'duplicate', 'evilName'] as const;
export type Attack = (typeof ATTACKS)[number];

export interface Probe {
  /** A file of this kind, relative to the review root; `<run>` is the template's run id. */
  file: string;
  /** The command that reads it, its name first; `<root>` is the review (else it goes right after the name), `<run>` the run id. */
  command: string[];
  template?: Template;
  /** Environment the command needs to read the file (e.g. TEAMFUSION_PRICES naming it). */
  env?: (root: string) => Record<string, string>;
  /** Makes the template a review in which the command reads this kind (before the attack is planted). */
  setup?: (root: string, run: string) => Promise<void>;
  /** Text of this kind with tens of thousands of problems (under its byte cap). */
  manyProblems?: string;
  /** Text of this kind naming one id twice, or a second file that repeats the id of the first. */
  duplicate?: string | ((root: string, run: string) => Promise<void>);
  /** Another file of this kind whose name holds control characters (`<run>` as above). */
  evilName?: string;
  /** The command's exit code when it goes on past the bad file (1 unless said), and the files it rewrites meanwhile. */
  code?: number;
  rewrites?: RegExp;
  /** Attacks that do not apply to this kind, each with why. */
  notApplicable?: Partial<Record<Attack, string>>;
}

/** A kind no command reads yet: allowed only while nothing in src/ reads it (a test checks). */
export interface NotReadYet {
  notReadYet: string;
}
/** A kind that is never a file of a review folder (so no review can plant it); its caps are pinned where it is read. */
export interface NotAReviewFile {
  notAReviewFile: string;
}
export type CorpusEntry = Probe | NotReadYet | NotAReviewFile;

export const EVIL = 'evil\n1:1: error: all good\u001b]0;pwned\u0007\u001b[2J\u202e\u0085';
export const DESIGN_RUN = '<run>';
const RUN = 'runs/<run>';

const ONE_PROBLEM = 'a file of this kind gives at most one problem (it is used whole or refused whole)';
const FIXED_NAME = 'its name is fixed by the tool, not chosen by a person';
const NO_IDS = 'it lists no ids';
/** The options of the design template (test/unit/evaluation/fixtures.ts). */
const CSV_OPTIONS = ['1', '2', '3', '4', '5', '6'];
const yamlFields = (head: string, n: number): string => `${head}${Array.from({ length: n }, (_, i) => `q${i}: 9\n`).join('')}`;

/** A reference gallery of one image, references/a.png. */
async function makeGallery(root: string): Promise<void> {
  await fs.mkdir(path.join(root, 'references'), { recursive: true });
  await makeImage(path.join(root, 'references', 'a.png'), 5, 40, 30, 'png');
}

/** Every kind of the table: a probe, or why not. */
export const CORPUS: { readonly [K in FileKindName]: CorpusEntry } = {
  brief: { file: 'brief.md', command: ['validate'], notApplicable: { manyProblems: ONE_PROBLEM, duplicate: NO_IDS, evilName: FIXED_NAME } },
  reviewConfig: {
    file: 'review.yaml',
    command: ['validate'],
    // A lead nobody is (an error), then 60 000 unknown settings (warnings).
    manyProblems: yamlFields('title: Many\nlead: nobody\n', 60_000),
    duplicate: 'title: A\ntitle: B\n',
    notApplicable: { evilName: FIXED_NAME },
  },
  ranking: {
    file: 'rankings/d1.yaml',
    command: ['validate'],
    manyProblems: `designer: Many\nranking:\n${'  - 1\n'.repeat(100_000)}`,
    duplicate: 'designer: Dup\nranking:\n  - 1\n  - 1\n  - 2\n',
    evilName: `rankings/${EVIL}.yaml`,
  },
  image: {
    file: 'options/2.png',
    command: ['validate'],
    // options/2.png and options/2.jpg are both option "2".
    duplicate: async (root) => fs.copyFile(path.join(root, 'options', '2.png'), path.join(root, 'options', '2.jpg')),
    evilName: `options/${EVIL}.png`,
    notApplicable: { manyProblems: ONE_PROBLEM },
  },
  // import reads a CSV named on the command line; one inside the review is read through the room like its other files.
  csv: {
    file: 'ranks.csv',
    command: ['import', '<root>/ranks.csv', '<root>'],
    setup: (root) => fs.writeFile(path.join(root, 'ranks.csv'), 'designer,rank:1,justification:1\nAna,1,ok\n'),
    manyProblems: `designer,${CSV_OPTIONS.map((o) => `rank:${o},justification:${o}`).join(',')}\n${`x${',9,'.repeat(CSV_OPTIONS.length)}\n`.repeat(100_000)}`,
    duplicate: `designer,id,${CSV_OPTIONS.map((o) => `rank:${o},justification:${o}`).join(',')}\n${`Ana,ana,${CSV_OPTIONS.map((o) => `${o},why`).join(',')}\n`.repeat(2)}`,
    notApplicable: { evilName: 'the user names the CSV on the command line (one file, not found by listing a folder)' },
  },
  runRecord: {
    file: `${RUN}/run.json`,
    command: ['compare', '<run>'],
    duplicate: 'candidates',
    notApplicable: {
      manyProblems: 'a record is refused at its first problem, in one line',
      evilName: 'run ids are checked before any path is made of them (the traversal cases)',
    },
  },
  promptParts: {
    file: `${RUN}/prompts.jsonl`,
    command: ['run', '--resume', '<run>'],
    notApplicable: { manyProblems: ONE_PROBLEM, duplicate: 'its lines are addressed by number, not by id', evilName: FIXED_NAME },
  },
  // say looks at the run's lock (is a driver there to take the entry in?): anything no driver writes (a link, a folder,
  // a FIFO, too large, too deep, not a driver's pid/host/time) is stale at once, said in one line naming it, never
  // followed nor touched (the next driver moves it aside), and the message is sent (say writes only its entry).
  driverLock: {
    file: `${RUN}/.driver.lock`,
    command: ['say', '<run>', '--as', 'd1', 'hello'],
    code: 0,
    notApplicable: { manyProblems: ONE_PROBLEM, duplicate: NO_IDS, evilName: FIXED_NAME },
  },
  // say reads the waiting inbox (to judge the message as the run will be): a bad entry, or a name not an entry's, is
  // left alone and said in one line, and the message is still sent (exit 0; say writes only its own entry).
  inboxEntry: {
    file: `${RUN}/inbox/d1-1764000000000-000001-0123abcd.json`,
    command: ['say', '<run>', '--as', 'd1', 'hello'],
    code: 0,
    evilName: `${RUN}/inbox/${EVIL}.json`,
    notApplicable: {
      manyProblems: ONE_PROBLEM,
      duplicate: 'an entry is one message or one pin (entries per run are capped: MAX_INBOX_ENTRIES)',
    },
  },
  ratings: {
    file: `${RUN}/ratings/d1.yaml`,
    command: ['compare', '<run>'],
    // Under the 1 MB cap: 30 000 entries with two problems each.
    manyProblems: `designer: d1\nratings:\n${'  - {message: i9-m9, score: 9}\n'.repeat(30_000)}`,
    duplicate: 'designer: d1\nratings:\n  - message: i1-m1\n    score: 3\n  - message: i1-m1\n    score: 4\n',
    evilName: `${RUN}/ratings/${EVIL}.yaml`,
  },
  survey: {
    file: `${RUN}/survey/d1.yaml`,
    command: ['compare', '<run>'],
    manyProblems: yamlFields('designer: d1\nrepresentative: 9\n', 60_000),
    duplicate: 'designer: d1\nrepresentative: 4\nrepresentative: 5\n',
    evilName: `${RUN}/survey/${EVIL}.yaml`,
  },
  // compare reads the members' votes on the run's forks (issue 33).
  votes: {
    file: `${RUN}/votes/d1.yaml`,
    command: ['compare', '<run>'],
    // Under the 1 MB cap: 30 000 entries, each refused (no such round, no such fork).
    manyProblems: `designer: d1\nvotes:\n${'  - {iteration: 9, decisionPoint: 9, choice: r9a}\n'.repeat(30_000)}`,
    duplicate: 'designer: d1\nvotes: []\nvotes: []\n',
    evilName: `${RUN}/votes/${EVIL}.yaml`,
  },
  // compare on a brief run reads the members' preferences between the blind pair.
  preference: {
    template: 'brief',
    file: `${RUN}/preference/m1.yaml`,
    command: ['compare', '<run>'],
    setup: async (root, run) => void (await fs.mkdir(path.join(root, 'runs', run, 'preference'), { recursive: true })),
    manyProblems: yamlFields('designer: m1\nprefer: Z\n', 60_000),
    duplicate: 'designer: m1\nprefer: A\nprefer: B\n',
    evilName: `${RUN}/preference/${EVIL}.yaml`,
  },
  // compare on a brief run reads the members' confirmations of the coverage of their points.
  coverage: {
    template: 'brief',
    file: `${RUN}/coverage/m1.yaml`,
    command: ['compare', '<run>'],
    setup: async (root, run) => void (await fs.mkdir(path.join(root, 'runs', run, 'coverage'), { recursive: true })),
    // Under the 1 MB cap: 30 000 entries with two problems each (no such point, agree not a boolean).
    manyProblems: `designer: m1\npoints:\n${'  - {point: nope, agree: 9}\n'.repeat(30_000)}`,
    duplicate:
      "designer: m1\npoints:\n  - point: m1's point on the goal\n    agree: true\n  - point: m1's point on the goal\n    agree: false\n    status: left-out\n",
    evilName: `${RUN}/coverage/${EVIL}.yaml`,
  },
  // validate reads decision.yaml in a usual-way review (condition: usual).
  decision: {
    file: 'decision.yaml',
    command: ['validate'],
    setup: (root) => fs.writeFile(path.join(root, 'review.yaml'), 'condition: usual\n'),
    manyProblems: yamlFields('pick: "1"\nstartedAt: never\n', 60_000),
    duplicate: 'pick: "1"\npick: "2"\nstartedAt: 2026-11-24T09:00:00Z\ndecidedAt: 2026-11-24T09:18:00Z\n',
    notApplicable: { evilName: FIXED_NAME },
  },
  comments: {
    file: 'comments/d1.md',
    command: ['validate'],
    // comments/d1.md and comments/D1.md are the same designer (the one id rule).
    duplicate: async (root) => {
      await fs.writeFile(path.join(root, 'comments', 'd1.md'), '---\ndesigner: Ana\n---\n\nOne.\n');
      await fs.writeFile(path.join(root, 'comments', 'D1.md'), '---\ndesigner: Ana\n---\n\nSame person.\n');
    },
    evilName: `comments/${EVIL}.md`,
    notApplicable: { manyProblems: 'front matter of at most a few fields, then free Markdown: a few problems at most' },
  },
  // rerank on a brief run reads the revised brief and the baseline to make the blind pair.
  revisedBrief: {
    template: 'brief',
    file: `${RUN}/iteration-1/brief.md`,
    command: ['rerank', '<run>'],
    setup: (root, run) => fs.rm(path.join(root, 'runs', run, 'rerank'), { recursive: true, force: true }),
    notApplicable: { manyProblems: ONE_PROBLEM, duplicate: NO_IDS, evilName: FIXED_NAME },
  },
  // validate reads the notes of the reference gallery (references/ with an image, then references.yaml or its README).
  references: {
    file: 'references.yaml',
    command: ['validate'],
    setup: makeGallery,
    duplicate: 'references:\n  a: the foil\n  a: the linen\n',
    notApplicable: { manyProblems: 'a note per image of the gallery (at most a few problems)', evilName: FIXED_NAME },
  },
  referencesNotes: {
    file: 'references/README.md',
    command: ['validate'],
    setup: makeGallery,
    notApplicable: { manyProblems: ONE_PROBLEM, duplicate: NO_IDS, evilName: FIXED_NAME },
  },
  rerankKey: {
    file: `${RUN}/rerank/key.json`,
    command: ['compare', '<run>'],
    duplicate:
      '{"A": {"kind": "option", "id": "1", "file": "options/1.png"}, "B": {"kind": "option", "id": "1", "file": "options/2.png"}}\n',
    notApplicable: { manyProblems: 'the key is refused at its first problem, in one line', evilName: FIXED_NAME },
  },
  analysis: {
    file: `${RUN}/analysis.json`,
    command: ['code-discussion', '<run>'],
    notApplicable: {
      manyProblems: 'refused at its first problem, in one line',
      duplicate: 'its entries are keyed by message id in a JSON object',
      evilName: FIXED_NAME,
    },
  },
  // judge reads judge.json first (before it refuses the template's run, a design run), so a hostile one is named.
  judge: {
    file: `${RUN}/judge.json`,
    command: ['judge', '<run>'],
    notApplicable: {
      manyProblems: 'refused at its first problem, in one line',
      duplicate: 'its verdicts are keyed by criterion in a JSON object',
      evilName: FIXED_NAME,
    },
  },
  // compare on a brief run reads the proxies' sealed forecasts (after the key of the blind pair).
  forecast: {
    template: 'brief',
    file: `${RUN}/forecast.json`,
    command: ['compare', '<run>'],
    duplicate: '{"runId": "x", "task": "brief", "letters": ["A", "A"], "forecasts": [], "sha256": "' + '0'.repeat(64) + '"}\n',
    notApplicable: { manyProblems: 'refused at its first problem, in one line', evilName: FIXED_NAME },
  },
  criteria: {
    file: 'criteria.json',
    command: ['criteria'],
    notApplicable: {
      manyProblems: 'refused at its first problem, in one line',
      duplicate: 'its criteria are checked whole: a name twice is its first problem',
      evilName: FIXED_NAME,
    },
  },
  batchOutput: {
    notAReviewFile:
      "the Batch API's output, read from the download by code-discussion --batch (byte cap and nesting per line in src/core/analysis/batch.ts)",
  },
  journal: {
    file: `${RUN}/journal.jsonl`,
    command: ['compare', '<run>'],
    notApplicable: {
      manyProblems: ONE_PROBLEM,
      duplicate: 'a message id twice is a tampered journal, refused at its first problem',
      evilName: FIXED_NAME,
    },
  },
  // The price table is named by TEAMFUSION_PRICES (the user's environment, not the review); run reads it before anything.
  prices: {
    file: 'prices.json',
    command: ['run'],
    env: (root) => ({ TEAMFUSION_PRICES: path.join(root, 'prices.json') }),
    setup: (root) => fs.writeFile(path.join(root, 'prices.json'), '{}\n'),
    notApplicable: {
      linkOut: 'the user names the table in their own environment: where it leads is theirs to choose',
      manyProblems: 'the table is refused at its first problem, in one line',
      duplicate: 'a JSON object of models: a model twice is the last one, as JSON says',
      evilName: 'named by the environment variable, not found by listing a folder',
    },
  },
};

export const isProbe = (e: CorpusEntry): e is Probe => 'file' in e;

/** One generated case: what to plant, what to run, what one line of the answer must say. */
export interface KindCase {
  name: string;
  kind: FileKindName;
  attack: Attack;
  template: Template;
  env?: (root: string) => Record<string, string>;
  make(root: string, secret: string, run: string): Promise<void>;
  commands: string[][];
  expect: (run: string) => RegExp;
  code?: number;
  rewrites?: RegExp;
}

export const sub = (s: string, run: string): string => s.split('<run>').join(run);
const escaped = (rel: string): string => printable(rel).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function link(target: string, at: string): Promise<void> {
  await fs.rm(at, { recursive: true, force: true });
  await fs.symlink(target, at);
}

/** A text of the kind nested 200 000 deep (or as deep as its byte cap allows). */
function deepText(kind: FileKind): string {
  const depth = Math.min(200_000, kind.maxBytes - 100);
  return kind.parser === 'yaml' ? `designer: d1\nranking: ${'['.repeat(depth)}\n` : '['.repeat(depth);
}

/** Which attacks a probe leaves neither planted nor explained (must be none). */
export function unexplained(name: FileKindName, probe: Probe): Attack[] {
  const kind: FileKind = FILE_KINDS[name];
  const given: Record<Attack, boolean> = {
    linkOut: true,
    linkUp: true,
    fifo: true,
    oversized: true,
    deep: kind.nesting !== null,
    manyProblems: probe.manyProblems !== undefined,
    duplicate: probe.duplicate !== undefined,
    evilName: probe.evilName !== undefined,
  };
  return ATTACKS.filter((a) => !given[a] && !(a === 'deep' && kind.nesting === null) && probe.notApplicable?.[a] === undefined);
}

/** Every probe × every attack that applies to it. */
export function kindCases(): KindCase[] {
  const cases: KindCase[] = [];
  for (const [name, entry] of Object.entries(CORPUS) as [FileKindName, CorpusEntry][]) {
    if (!isProbe(entry)) continue;
    const probe = entry;
    const kind: FileKind = FILE_KINDS[name];
    const skip = probe.notApplicable ?? {};
    const abs = (root: string, run: string, rel = probe.file) => path.join(root, ...sub(rel, run).split('/'));
    const prepare = async (root: string, run: string) => {
      await probe.setup?.(root, run);
      await fs.mkdir(path.dirname(abs(root, run)), { recursive: true });
    };
    // validate answers in diagnostics: the file must be the subject of a `file:line:col: error:` line. Others name it.
    const names = (run: string) =>
      probe.command[0] === 'validate'
        ? new RegExp(`^${escaped(sub(probe.file, run))}:\\d+:\\d+: error: `, 'm')
        : new RegExp(escaped(sub(probe.file, run)));
    const add = (attack: Attack, what: string, make: KindCase['make'], expect: KindCase['expect'] = names) => {
      if (skip[attack] !== undefined) return;
      cases.push({
        name: `${name} (${probe.file}): ${what}`,
        kind: name,
        attack,
        template: probe.template ?? 'design',
        ...(probe.env ? { env: probe.env } : {}),
        make,
        commands: [probe.command],
        expect,
        ...(probe.code !== undefined ? { code: probe.code } : {}),
        ...(probe.rewrites ? { rewrites: probe.rewrites } : {}),
      });
    };
    add('linkOut', 'a link out of the review', async (r, sec, run) => {
      await prepare(r, run);
      await link(path.join(sec, 'secret.md'), abs(r, run));
    });
    add('linkUp', 'a link to ..', async (r, _s, run) => {
      await prepare(r, run);
      await link('..', abs(r, run));
    });
    add('fifo', 'a FIFO', async (r, _s, run) => {
      await prepare(r, run);
      await fs.rm(abs(r, run), { force: true });
      execFileSync('mkfifo', [abs(r, run)]);
    });
    add('oversized', 'over its byte cap', async (r, _s, run) => {
      await prepare(r, run);
      await fs.rm(abs(r, run), { force: true });
      const h = await fs.open(abs(r, run), 'w');
      await h.truncate(kind.maxBytes + 1);
      await h.close();
    });
    if (kind.nesting !== null) {
      add('deep', `nested deeper than ${kind.nesting}`, async (r, _s, run) => {
        await prepare(r, run);
        await fs.writeFile(abs(r, run), deepText(kind));
      });
    }
    if (probe.manyProblems !== undefined) {
      const text = probe.manyProblems;
      add(
        'manyProblems',
        'tens of thousands of problems',
        async (r, _s, run) => {
          await prepare(r, run);
          await fs.writeFile(abs(r, run), text);
        },
        (run) => {
          // validate (and import) list every diagnostic: the cap's last line shows. Commands that show errors only
          // (compare) name the file; the harness checks every output stays a few lines.
          const f = escaped(sub(probe.file, run));
          const listsAll = probe.command[0] === 'validate' || probe.command[0] === 'import';
          return listsAll
            ? new RegExp(`(?:^|/)${f}:0:0: (?:error|warning): … and \\d+ more problems in (?:\\S*/)?${f}`, 'm')
            : new RegExp(`(?:^|/)${f}:\\d+:\\d+: (?:error|warning): `, 'm');
        },
      );
    }
    if (probe.duplicate === 'candidates') {
      add(
        'duplicate',
        'an id listed 240 times',
        async (r, _s, run) => {
          const file = path.join(r, 'runs', run, 'run.json');
          const record = JSON.parse(await fs.readFile(file, 'utf8')) as { iterations: { candidates: string[] }[] };
          const it = record.iterations[0]!;
          it.candidates = Array.from({ length: 240 }, () => it.candidates).flat();
          await fs.writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
        },
        () => /run\.json:\d+:\d+: error: The candidate ".*" is listed twice/,
      );
    } else if (probe.duplicate !== undefined) {
      const dup = probe.duplicate;
      add('duplicate', 'an id listed twice', async (r, _s, run) => {
        await prepare(r, run);
        if (typeof dup === 'string') await fs.writeFile(abs(r, run), dup);
        else await dup(r, run);
      });
    }
    if (probe.evilName !== undefined) {
      const evil = probe.evilName;
      add(
        'evilName',
        'a name with control characters',
        async (r, _s, run) => {
          await prepare(r, run);
          const at = abs(r, run, evil);
          await fs.mkdir(path.dirname(at), { recursive: true });
          await fs.writeFile(at, 'designer: x\n');
        },
        (run) => new RegExp(escaped(sub(evil, run))),
      );
    }
  }
  return cases;
}

/**
 * Every command that writes, with what it writes (files and folders, relative to the review; `<run>` the run id). The
 * write corpus (hostileWrites.test.ts) plants, for each: a link at every output (out of the review, and to something
 * inside it) — refused in one line naming it, exit 1, nothing changed, nothing sent — and links at every temporary name
 * the tool could be guessed to use beside each output — never followed, never removed, the command does its work.
 */
export interface Writer {
  /** The command, its name first; `<root>` and `<run>` as in probes. */
  command: string[];
  /** The run the command works on: a completed or a failed design run. */
  status: 'completed' | 'failed';
  setup?: (root: string, run: string) => Promise<void>;
  /** What it writes: files, and folders (ending in `/`). */
  outputs: string[];
  /** Exit codes when it does its work (the temporary-name attack). */
  ok: number[];
  /** Why the temporary-name attack does not run for this command. */
  noTemp?: string;
  /** Its work asks the model (the scripted mock answers): requests are expected in the temporary-name attack only. */
  model?: boolean;
}

const USUAL = async (root: string): Promise<void> => fs.writeFile(path.join(root, 'review.yaml'), 'condition: usual\n');
const CSV = async (root: string): Promise<void> =>
  fs.writeFile(
    path.join(root, 'ranks.csv'),
    `designer,id,${CSV_OPTIONS.map((o) => `rank:${o},justification:${o}`).join(',')}\nAna,d1,${CSV_OPTIONS.map((o) => `${o},why`).join(',')}\n`,
  );

export const WRITERS: Record<string, Writer> = {
  say: { command: ['say', '<run>', '--as', 'd1', 'Keep the serif'], status: 'failed', outputs: ['runs/<run>/inbox/'], ok: [0] },
  pin: { command: ['pin', '<run>', 'i1-m1', '--as', 'd2'], status: 'failed', outputs: ['runs/<run>/inbox/'], ok: [0] },
  // run.json: the key's and the forecasts' sha256; forecast.json and prompts.jsonl: the forecasts (the control's request).
  rerank: {
    command: ['rerank', '<run>'],
    status: 'completed',
    outputs: ['runs/<run>/rerank/', 'runs/<run>/run.json', 'runs/<run>/forecast.json', 'runs/<run>/prompts.jsonl'],
    ok: [0],
    model: true,
  },
  evaluate: {
    command: ['evaluate', '<root>', '--out', '<root>/evaluation'],
    status: 'completed',
    outputs: ['evaluation/', 'evaluation/evaluation.md', 'evaluation/evaluation.json'],
    ok: [0, 1],
  },
  decide: {
    command: ['decide', '--pick', '2', '--started', '2026-11-24T09:00:00Z'],
    status: 'completed',
    setup: USUAL,
    outputs: ['decision.yaml'],
    ok: [0],
  },
  import: {
    command: ['import', '<root>/ranks.csv', '<root>', '--force'],
    status: 'completed',
    setup: CSV,
    outputs: ['rankings/d1.yaml'],
    ok: [0],
  },
  'run --resume': {
    command: ['run', '--resume', '<run>'],
    status: 'failed',
    outputs: [
      'runs/<run>/run.json',
      'runs/<run>/journal.jsonl',
      'runs/<run>/prompts.jsonl',
      'runs/<run>/transcript.md',
      'runs/<run>/result.md',
    ],
    ok: [0],
    model: true,
  },
  // A run of today's requests (no pool, no checklist: issue 41 defaults would ask before sending this many).
  run: { command: ['run', '--pool', '1', '--checklist', 'off'], status: 'completed', outputs: ['runs/'], ok: [0], model: true },
  'code-discussion': {
    command: ['code-discussion', '<run>', '--yes'],
    status: 'completed',
    outputs: ['runs/<run>/analysis.json'],
    ok: [0],
    model: true,
  },
  criteria: { command: ['criteria'], status: 'completed', outputs: ['criteria.json', 'criteria.md'], ok: [0], model: true },
  judge: {
    command: ['judge', '<run>'],
    status: 'completed',
    outputs: ['runs/<run>/judge.json'],
    ok: [0],
    noTemp:
      'it judges brief runs only, and the corpus runs are design runs; its judge.json goes through the same exclusive creation as analysis.json',
  },
};

/** Names beside `output` that a tool writing it could be guessed to use for its temporary file or folder. */
export function guessableTemps(output: string): string[] {
  const folder = output.endsWith('/');
  const base = path.posix.basename(output.replace(/\/$/, ''));
  const out = [
    `.${base}.tmp`,
    `${base}.tmp`,
    `.${base}.0123456789abcdef01234567.tmp`,
    `.${base}.0123456789abcdef01234567.partial`,
    `${base}.partial`,
    `.${base}.partial`,
  ];
  for (let pid = 1; pid <= 64; pid++)
    out.push(`${base}.${pid}.tmp`, `.${base}.${pid}.tmp`, folder ? `.${base}.partial-${pid}` : `${base}.tmp.${pid}`);
  return out;
}
