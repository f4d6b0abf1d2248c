/**
 * The hand-written cases of the hostile corpus (the harness that runs them is corpusHarness.ts): review files
 * (hostileCorpus.test.ts) and run records, inboxes and what a record makes a command do (hostileRuns.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { RUN_ID } from '../evaluation/fixtures';
import { makeImage } from '../run/fixtures';
import { EVIL } from './corpusProbes';
import type { Case } from './corpusHarness';

async function link(target: string, at: string): Promise<void> {
  await fs.rm(at, { recursive: true, force: true });
  await fs.symlink(target, at);
}

/** A ranking file of the template as text (read synchronously: it is small). */
function readRanking(root: string, id: string): string {
  return readFileSync(path.join(root, 'rankings', `${id}.yaml`), 'utf8');
}

async function editRecord(
  root: string,
  edit: (
    r: Record<string, unknown> & { iterations: { remix?: { id: string; file: string } }[]; options: { id: string; file: string }[] },
  ) => void,
  oneLine = false,
): Promise<void> {
  const file = path.join(root, 'runs', RUN_ID, 'run.json');
  const record = JSON.parse(await fs.readFile(file, 'utf8')) as Parameters<typeof edit>[0];
  edit(record);
  await fs.writeFile(file, `${oneLine ? JSON.stringify(record) : JSON.stringify(record, null, 2)}\n`);
}

const REVIEW = [['validate'], ['run']];
const RUN = [
  ['run', '--resume', RUN_ID],
  ['rerank', RUN_ID],
  ['compare', RUN_ID],
];

/** Review files: links out, special files, oversized, deep and noisy files, hostile names, too many images. */
export const REVIEW_FILE_CASES: Case[] = [
  {
    name: 'brief.md is a symlink out',
    make: (r, s) => link(path.join(s, 'secret.md'), path.join(r, 'brief.md')),
    commands: REVIEW,
    expect: /^brief\.md:0:0: error: brief\.md leads outside the review folder/m,
  },
  {
    name: 'a ranking is a symlink out',
    make: (r, s) => link(path.join(s, 'ranking.yaml'), path.join(r, 'rankings', 'd1.yaml')),
    commands: REVIEW,
    expect: /^rankings\/d1\.yaml:0:0: error: .*leads outside the review folder/m,
  },
  {
    name: 'review.yaml is a symlink out',
    make: (r, s) => link(path.join(s, 'review.yaml'), path.join(r, 'review.yaml')),
    commands: REVIEW,
    expect: /^review\.yaml:0:0: error: .*leads outside the review folder/m,
  },
  {
    name: 'an option is a symlink out',
    make: (r, s) => link(path.join(s, 'secret.png'), path.join(r, 'options', '2.png')),
    commands: REVIEW,
    expect: /^options\/2\.png:0:0: error: .*leads outside the review folder/m,
  },
  {
    name: 'options/ is a symlink out',
    make: (r, s) => link(path.join(s, 'options'), path.join(r, 'options')),
    commands: REVIEW,
    expect: /^options:0:0: error: options leads outside the review folder/m,
  },
  {
    name: 'rankings/ is a symlink out',
    make: (r, s) => link(path.join(s, 'rankings'), path.join(r, 'rankings')),
    commands: REVIEW,
    expect: /^rankings:0:0: error: rankings leads outside the review folder/m,
  },
  {
    name: 'a ranking links to /dev/zero, an option to /dev/urandom',
    make: async (r) => {
      await link('/dev/zero', path.join(r, 'rankings', 'zero.yaml'));
      await link('/dev/urandom', path.join(r, 'options', '3.png'));
    },
    commands: REVIEW,
    expect: /^rankings\/zero\.yaml:0:0: error: .*leads outside the review folder/m,
  },
  {
    name: 'brief.md is a FIFO',
    make: async (r) => {
      await fs.rm(path.join(r, 'brief.md'));
      execFileSync('mkfifo', [path.join(r, 'brief.md')]);
    },
    commands: REVIEW,
    expect: /^brief\.md:0:0: error: brief\.md is a named pipe \(FIFO\), not a regular file/m,
  },
  {
    name: 'a ranking and an option are FIFOs',
    make: async (r) => {
      await fs.rm(path.join(r, 'rankings', 'd2.yaml'));
      execFileSync('mkfifo', [path.join(r, 'rankings', 'd2.yaml')]);
      execFileSync('mkfifo', [path.join(r, 'options', '9.png')]);
    },
    commands: REVIEW,
    expect: /^rankings\/d2\.yaml:0:0: error: .*named pipe \(FIFO\)/m,
  },
  {
    name: 'a 30 MB ranking',
    make: (r) => fs.writeFile(path.join(r, 'rankings', 'd3.yaml'), Buffer.alloc(30 * 1024 * 1024, 0x20)),
    commands: REVIEW,
    expect: /^rankings\/d3\.yaml:0:0: error: rankings\/d3\.yaml is too large \(30 MB; at most 2 MB\)\.$/m,
  },
  {
    name: 'deeply nested YAML and JSON',
    make: async (r) => {
      await fs.writeFile(path.join(r, 'rankings', 'd1.yaml'), `designer: A\nranking:\n${'- '.repeat(300_000)}x\n`);
      await fs.writeFile(path.join(r, 'rankings', 'd9.json'), `{"designer": "B", "ranking": ${'['.repeat(500_000)}}`);
      await fs.writeFile(path.join(r, 'review.yaml'), `title: ${'{a: '.repeat(100_000)}\n`);
    },
    commands: REVIEW,
    expect: /^rankings\/d1\.yaml:3:\d+: error: The lists and fields here are nested more than 64 levels deep/m,
  },
  {
    name: '200 000 problems in one ranking',
    make: (r) => fs.writeFile(path.join(r, 'rankings', 'd2.yaml'), `designer: Many\nranking:\n${'  - 1\n'.repeat(200_000)}`),
    commands: REVIEW,
    expect: /^rankings\/d2\.yaml:0:0: error: … and \d+ more problems in rankings\/d2\.yaml \(only the first 50 are listed\)\.$/m,
  },
  {
    name: 'control characters and escape sequences in file names',
    make: async (r) => {
      await fs.writeFile(path.join(r, 'rankings', `${EVIL}.yaml`), 'designer: "\\e]0;x\\a"\nranking: []\n');
      await makeImage(path.join(r, 'options', `\u001b[31mred\u202e.png`), 3, 40, 30, 'png');
    },
    commands: [...REVIEW, ['analyze']],
    expect: /^rankings\/evil\\n1:1: error: all good\\x1b\]0;pwned\\x07\\x1b\[2J\\u202e\\x85\.yaml:\d+:\d+: error: /m,
  },
  {
    name: '600 links to one 10000×10000 image: the 50-image cap speaks before any decode',
    make: async (r) => {
      await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#808080' } })
        .png()
        .toFile(path.join(r, 'big.png'));
      for (let i = 0; i < 600; i++) await fs.symlink('../big.png', path.join(r, 'options', `big-${i}.png`));
    },
    commands: [['validate']],
    expect: /^options:0:0: error: options\/ has 606 images; a review compares at most 50\. Move some out \(no image was opened\)\.$/m,
  },
];

/** Run records, run folders, inboxes, surveys and what a record makes a command do. */
export const RUN_CASES: Case[] = [
  {
    name: 'runs/ is a symlink out (a new run must not write through it)',
    make: (r, s) => link(path.join(s, 'runs'), path.join(r, 'runs')),
    commands: [['run'], ...RUN],
    expect: /leads outside the review folder \(runs is a symbolic link out of it\)/,
  },
  {
    name: 'a run folder is a symlink out',
    make: (r, s) => link(path.join(s, 'runs', RUN_ID), path.join(r, 'runs', RUN_ID)),
    commands: RUN,
    expect: /leads outside the review folder/,
  },
  {
    name: 'run.json is a symlink out',
    make: (r, s) => link(path.join(s, 'runs', RUN_ID, 'run.json'), path.join(r, 'runs', RUN_ID, 'run.json')),
    commands: RUN,
    expect: /run\.json leads outside the review folder/,
  },
  {
    name: 'run.json is a FIFO',
    make: async (r) => {
      await fs.rm(path.join(r, 'runs', RUN_ID, 'run.json'));
      execFileSync('mkfifo', [path.join(r, 'runs', RUN_ID, 'run.json')]);
    },
    commands: RUN,
    expect: /run\.json is a named pipe \(FIFO\)/,
  },
  {
    name: 'run.json is 9 MB',
    make: (r) => fs.writeFile(path.join(r, 'runs', RUN_ID, 'run.json'), `{"pad": "${'x'.repeat(9 * 1024 * 1024)}"}`),
    commands: RUN,
    expect: /run\.json is too large/,
  },
  {
    name: 'run.json is nested 500 000 deep',
    make: (r) => fs.writeFile(path.join(r, 'runs', RUN_ID, 'run.json'), '['.repeat(500_000)),
    commands: RUN,
    expect: /run\.json:\d+:\d+: error: /,
  },
  {
    name: 'the record id climbs out',
    make: (r) => editRecord(r, (x) => (x.id = '../../secret')),
    commands: RUN,
    expect: /run\.json:\d+:\d+: error: /,
  },
  {
    name: 'a remix file climbs out',
    make: (r) => editRecord(r, (x) => (x.iterations[0]!.remix!.file = '../../../secret/secret.png')),
    commands: RUN,
    expect: /run\.json:\d+:\d+: error: /,
  },
  {
    name: 'a remix id holds a path',
    make: (r) => editRecord(r, (x) => (x.iterations[0]!.remix!.id = 'r1/../../../secret')),
    commands: RUN,
    expect: /run\.json:\d+:\d+: error: /,
  },
  {
    name: 'an option file climbs out',
    make: (r) => editRecord(r, (x) => (x.options[1]!.file = 'options/../../secret/secret.png')),
    commands: RUN,
    expect: /run\.json:\d+:\d+: error: /,
  },
  {
    name: 'an option file is absolute',
    make: (r, s) => editRecord(r, (x) => (x.options[1]!.file = path.join(s, 'secret.png'))),
    commands: RUN,
    expect: /run\.json:\d+:\d+: error: /,
  },
  {
    name: 'a remix PNG the record names is a symlink out',
    make: (r, s) => link(path.join(s, 'secret.png'), path.join(r, 'runs', RUN_ID, 'iteration-1', 'remix.png')),
    commands: RUN,
    expect: /iteration-1\/remix\.png.*(leads outside the review folder|not a regular file)/,
  },
  {
    name: 'a control sequence in the record',
    make: (r) => editRecord(r, (x) => (x.id = `${RUN_ID}\u001b[2J\n`)),
    commands: RUN,
    expect: /run\.json:\d+:\d+: error: .*\\x1b\[2J\\n/,
  },
  // Issue 16: what a record makes the program do is bounded.
  {
    name: 'prompts chained through base 30 000 deep (run.json under its cap)',
    make: (r) =>
      editRecord(
        r,
        (x) => {
          x.prompts = Array.from({ length: 30_000 }, (_, k) => ({
            id: `c${k}`,
            iteration: 1,
            kind: 'proxy-turn',
            model: 'm',
            at: 't',
            ...(k ? { base: { prompt: `c${k - 1}`, messages: k } } : {}),
            parts: [[k, 1]],
          }));
        },
        true,
      ),
    commands: RUN,
    expect: /run\.json:\d+:\d+: error: Prompt "c10001" is built on a chain of more than 10000 earlier prompts/,
  },
  // The other cases ("Why"), each through the real CLI under strace like the rest.
  {
    name: 'survey files named ANA, ａｎａ and after someone not on the team are not counted (n stays within the team)',
    make: async (r, _s, run) => {
      const dir = path.join(r, 'runs', run, 'survey');
      await fs.mkdir(dir, { recursive: true });
      for (const who of ['d1', 'ANA', 'ａｎａ', 'D1', 'stranger'])
        await fs.writeFile(path.join(dir, `${who}.yaml`), `designer: ${who}\nrepresentative: 4\nclarity: 4\nsatisfied: 4\n`);
    },
    commands: [['compare', '<run>']],
    expect: /survey\/stranger\.yaml.*(not|no one|nobody).*team/i,
  },
  {
    name: "a line break in a designer's name is refused at its place: it can forge no line of analyze's table",
    make: (r) =>
      fs.writeFile(
        path.join(r, 'rankings', 'd1.yaml'),
        readRanking(r, 'd1').replace(/^designer: .*$/m, 'designer: "Ana\\n| forged | 1.000 | row |"'),
      ),
    commands: [['analyze']],
    expect: /rankings\/d1\.yaml:\d+:\d+: error: .*must be one line of text/,
  },
  {
    name: 'code-discussion on a record of 40 000 messages says what it would cost and sends nothing without --yes',
    make: (r) =>
      editRecord(
        r,
        (x) => {
          (x.iterations as unknown as { messages: unknown[] }[])[0]!.messages = Array.from({ length: 40_000 }, (_, i) => ({
            id: `i1-m${i + 1}`,
            kind: 'proxy',
            speaker: 'd1',
            turn: null,
            content: `Point ${i + 1}.`,
          }));
        },
        true,
      ),
    commands: [['code-discussion', '<run>']],
    expect: /would send 5,000 requests for 40,\d\d\d messages \(about \$[\d.,]+\), more than 100 requests; nothing was sent/,
  },
  {
    name: 'an inbox holding 1000 entries takes no more (say refused in one sentence)',
    make: async (r, _s, run) => {
      const dir = path.join(r, 'runs', run, 'inbox');
      await fs.mkdir(dir, { recursive: true });
      const entry = JSON.stringify({ type: 'say', speaker: 'd2', content: 'x', at: '2026-11-24T09:00:00.000Z' });
      for (let i = 0; i < 1000; i++)
        await fs.writeFile(path.join(dir, `d2-${String(1764000000000 + i)}-${String(i).padStart(6, '0')}-0123abcd.json`), entry);
    },
    commands: [['say', '<run>', '--as', 'd1', 'one more']],
    expect: /inbox of run \S+ already holds 1000 entries/,
  },
  {
    name: 'a resume that would take in 1000 messages of 3900 characters into a 7.5 MB record: run.json is never written over its cap, nothing sent',
    make: async (r, _s, run) => {
      await editRecord(
        r,
        (x) => {
          (x.iterations as unknown as { messages: unknown[] }[])[0]!.messages = Array.from({ length: 1900 }, (_, i) => ({
            id: `i1-m${i + 1}`,
            kind: 'proxy',
            speaker: 'd1',
            turn: null,
            content: 'x'.repeat(3900),
          }));
        },
        true,
      );
      const dir = path.join(r, 'runs', run, 'inbox');
      await fs.mkdir(dir, { recursive: true });
      const entry = JSON.stringify({ type: 'say', speaker: 'd2', content: 'y'.repeat(3900), at: '2026-11-24T09:00:00.000Z' });
      for (let i = 0; i < 1000; i++)
        await fs.writeFile(path.join(dir, `d2-${String(1764000000000 + i)}-${String(i).padStart(6, '0')}-0123abcd.json`), entry);
    },
    commands: [['run', '--resume', '<run>']],
    // The record is saved as failed (with why), under its cap; nothing else of the review changes.
    rewrites: /^runs\/[^/]+\/(run\.json|journal\.jsonl|transcript\.md|result\.md)$/,
    expect:
      /^teamfusion run: runs\/\S+\/run\.json would grow to 1\d\.\d MB, over the 8 MB a run record may have; it is not written \(the run as saved before stays usable\)\. Start a new run to go on\.$/m,
  },
  {
    name: 'a say of 100 000 characters',
    make: async () => undefined,
    commands: [['say', RUN_ID, '--as', 'd1', 'x'.repeat(100_000)]],
    expect: /The message is 100000 characters long; a message is at most 4000/,
  },
];
