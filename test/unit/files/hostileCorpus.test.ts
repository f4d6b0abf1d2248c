/**
 * The hostile corpus: review folders built the way an attacker would (symbolic links out of the review for every kind of
 * file, special files, oversized and deeply nested files, control characters in names, run records with traversal in
 * every id and path), run through the REAL command line (`node dist/cli.js validate / analyze / run / rerank / compare`)
 * under strace, with the mock model server listening. This file holds the hand-written cases on review files, the checks
 * that the generated corpus covers the file-kind table, and hostile model text; the hand-written cases on run records
 * run in hostileRuns, the generated ones in hostileKinds1 and hostileKinds2 (so that the parallel test workers share
 * them). The cases are in corpusCases.ts and corpusProbes.ts; what every case must show is in corpusHarness.ts.
 * strace is required (CI installs it): without it this suite fails instead of skipping.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { FILE_KINDS, type FileKindName } from '../../../src/core/files/fileKinds';
import { makeReview as makeRunReview } from '../run/fixtures';
import { TEST_KEY } from '../run/helpers';
import { cleanEnv, cliUnderStrace, violations } from '../../support/strace';
import { CORPUS, isProbe, kindCases, unexplained, type CorpusEntry } from './corpusProbes';
import { builtCli, CLI_PATH } from '../../support/builtCli';
import { RAW_CONTROL, corpusSuite, generatedCases } from './corpusHarness';
import { REVIEW_FILE_CASES } from './corpusCases';

const REPO = path.resolve(__dirname, '../../../..');

/** Files of src/ that read a kind (through the table's read, its checks, or its caps), by kind. */
async function readersOf(name: FileKindName): Promise<string[]> {
  const out: string[] = [];
  const use = new RegExp(
    `(readKind\\w*|checkKindText|capKindDiagnostics|nestingOf)\\([^;]*['"]${name}['"]|FILE_KINDS\\.${name}\\b|FILE_KINDS\\[['"]${name}['"]\\]|KIND_BYTES\\.${name}\\b`,
  );
  const walk = async (dir: string): Promise<void> => {
    for (const d of await fs.readdir(dir, { withFileTypes: true })) {
      const abs = path.join(dir, d.name);
      if (d.isDirectory()) await walk(abs);
      else if (/\.tsx?$/.test(d.name) && !abs.endsWith(path.join('files', 'fileKinds.ts')) && use.test(await fs.readFile(abs, 'utf8')))
        out.push(path.relative(REPO, abs));
    }
  };
  await walk(path.join(REPO, 'src'));
  return out;
}

describe('hostile corpus: generated from the file-kind table', () => {
  it('every kind of the table is probed, or is not read by anything in src/ yet, or is never a file of a review', async () => {
    const missing: string[] = [];
    for (const name of Object.keys(FILE_KINDS) as FileKindName[]) {
      const entry = CORPUS[name];
      assert.ok(entry, `${name}: give it an entry in CORPUS (test/unit/files/corpusProbes.ts)`);
      if ('notReadYet' in entry) {
        const readers = await readersOf(name);
        if (readers.length)
          missing.push(
            `${name} is read by ${readers.join(', ')} but has no probe in the hostile corpus: give it one in CORPUS (test/unit/files/corpusProbes.ts)`,
          );
      }
    }
    assert.deepEqual(missing, []);
    for (const name of Object.keys(CORPUS)) assert.ok(name in FILE_KINDS, `${name} is in CORPUS but not in the table`);
  });

  it('every probe plants every attack, or says why it does not apply', () => {
    const gaps = (Object.entries(CORPUS) as [FileKindName, CorpusEntry][]).flatMap(([name, e]) =>
      isProbe(e) ? unexplained(name, e).map((a) => `${name}: ${a}`) : [],
    );
    assert.deepEqual(gaps, []);
    const probed = (Object.values(CORPUS) as CorpusEntry[]).filter(isProbe).length;
    assert.ok(kindCases().length >= 4 * probed);
  });

  it("the corpus covers every kind a command reads today: at least 22 of the table's kinds are probed", () => {
    // 23 kinds: the Batch API's output is never a file of a review.
    assert.ok((Object.values(CORPUS) as CorpusEntry[]).filter(isProbe).length >= 22);
  });

  it('the two generated files (hostileKinds1, hostileKinds2) together run every generated case, each once', () => {
    const names = [...generatedCases(1), ...generatedCases(2)].map((c) => c.name);
    assert.deepEqual(
      [...names].sort(),
      kindCases()
        .map((k) => k.name)
        .sort(),
    );
    assert.equal(new Set(names).size, names.length);
    assert.ok(generatedCases(1).length > 0 && generatedCases(2).length > 0);
  });
});

corpusSuite('the hand-written cases: review files', REVIEW_FILE_CASES, true);

describe('hostile model text: run prints what the model says only as escaped text', function () {
  this.timeout(120_000);
  let mock: MockOpenAI;
  before(async () => {
    builtCli();
    mock = await MockOpenAI.start();
  });
  after(async () => mock?.close());

  it('names and messages with raw HTML, Markdown links and control characters reach transcript.md and result.md only as text (under strace)', async () => {
    const root = await makeRunReview({ options: 3, designers: 2, size: 64 });
    const name = '<img src=x onerror=alert(1)> [click](javascript:alert(1))'; // a control character in a name is refused at validation (namesAreData.test)
    const file = path.join(root, 'rankings', 'd1.yaml');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/^designer: .*$/m, `designer: ${JSON.stringify(name)}`));
    const said = 'Image 1 <img src=y onerror=alert(2)> wins, see ](javascript:alert(3)) and <script>x</script>\u0007';
    mock.enqueue('chat', { kind: 'chat', content: said }, { kind: 'chat', content: said });
    const dir = path.dirname(root);
    const cache = path.join(dir, `${path.basename(root)}-cache`);
    const env = { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: mock.baseURL, XDG_CACHE_HOME: cache, TEAMFUSION_MAX_RETRIES: '0' };
    const r = await cliUnderStrace(
      ['run', root, '--mode', 'together', '--turns', '1', '--iterations', '1'],
      env,
      dir,
      path.join(dir, `${path.basename(root)}-strace.log`),
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(violations(r.trace, dir, [root, await fs.realpath(root)], [], cache), []);
    const runDir = path.join(root, 'runs', (await fs.readdir(path.join(root, 'runs')))[0]!);
    for (const md of ['transcript.md', 'result.md']) {
      const text = await fs.readFile(path.join(runDir, md), 'utf8');
      assert.ok(text.includes('onerror'), `${md} carries the name and the message (as text)`);
      assert.doesNotMatch(text, /<img|<script|\]\(javascript:/i, `${md}: raw HTML or a live link`);
      assert.ok(!RAW_CONTROL.test(text.replace(/\n/g, '')), `${md}: a raw control character`);
    }
  });

  it('streamed turns with ESC sequences, BEL, C1 and bidi overrides reach the terminal escaped, one turn per line', async () => {
    const root = await makeRunReview({ options: 3, designers: 2, size: 64 });
    const evil = 'Image 1 wins.\u001b]0;pwned\u0007\u001b[2J\r\nfake: line\u0085\u202eevil\u2028end';
    mock.enqueue('chat', { kind: 'chat', content: evil }, { kind: 'chat', content: evil });
    const cache = path.join(root, '..', `${path.basename(root)}-cache`);
    const child = spawn(process.execPath, [CLI_PATH, 'run', root, '--mode', 'together', '--turns', '1', '--iterations', '1'], {
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
