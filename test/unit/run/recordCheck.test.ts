import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { parseRunArgs } from '../../../src/cli/commands/run/run';
import { formatDiagnostic } from '../../../src/core/diagnostics/diagnostics';
import { parseReviewConfig } from '../../../src/core/review/reviewConfig';
import { SETTING_BOUNDS } from '../../../src/core/settings/settingBounds';
import { resolveRunSettings as resolveVsCodeSettings } from '../../../src/extension/run/runSettings';
import { lineColAt, locateJsonValue } from '../../../src/core/diagnostics/jsonLocate';
import { startRun } from '../../../src/core/run/session';
import { listRunEntries, listRuns, loadRunRecord, readRunRecord } from '../../../src/core/record/store';
import { RunRecordError } from '../../../src/core/diagnostics/diagnostics';
import { buildPanelState } from '../../../src/extension/panel/panelState';
import { makeReview, makeTempDir } from './fixtures';
import { TEST_KEY, clientFor, UNPOOLED } from './helpers';
import { builtCli } from '../../support/builtCli';

const REPO = path.resolve(__dirname, '../../../..');

type Json = Record<string, any>;

/** The one line a broken record gives, and where its line:col points in the text. */
async function brokenLine(root: string, id: string): Promise<string> {
  const loaded = await loadRunRecord(root, id);
  assert.ok(loaded.diagnostics, 'the record is refused');
  assert.equal(loaded.diagnostics.length, 1);
  const line = formatDiagnostic(loaded.diagnostics[0]!);
  assert.ok(!line.includes('\n'), 'one line');
  return line;
}

/** line:col where `needle` starts in the text (counted here, independently of the code under test). */
function posOf(text: string, needle: string): string {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, needle);
  const before = text.slice(0, at).split('\n');
  return `${before.length}:${before.at(-1)!.length + 1}`;
}

/** Where a diagnostic must point: at the value after `"key": ` when the needle is a key-value pair, else at the needle.
 * `"index": 2` stands for the second iteration: the object holding it, which opens one line above at column 5. */
function expectedPos(text: string, needle: string): string {
  if (needle === '"index": 2') return `${Number(posOf(text, needle).split(':')[0]) - 1}:5`;
  const kv = /^("[^"]+": )(.*)$/.exec(needle);
  if (!kv) return posOf(text, needle);
  const [line, col] = posOf(text, needle).split(':').map(Number);
  return `${line}:${col! + kv[1]!.length}`;
}

describe('run records are validated, not believed', function () {
  this.timeout(60_000);
  let mock: MockOpenAI;
  let root: string;
  let id: string;
  let file: string;
  let original: string;
  before(async () => {
    mock = await MockOpenAI.start();
    root = await makeReview({ options: 3, designers: 2 });
    const record = await startRun({
      reviewRoot: root,
      client: clientFor(mock),
      settings: { ...UNPOOLED, turnsPerAgent: 1, iterations: 2 },
      cacheDir: await makeTempDir('tf-cache-'),
    });
    assert.equal(record.status, 'completed', record.error);
    id = record.id;
    file = path.join(root, 'runs', id, 'run.json');
    original = await fs.readFile(file, 'utf8');
  });
  after(async () => mock.close());
  afterEach(async () => {
    await fs.writeFile(file, original);
    for (const n of ['1.png', '2.png']) {
      const p = path.join(root, 'options', n);
      const st = await fs.lstat(p).catch(() => undefined);
      if (!st || !st.isFile()) {
        await fs.rm(p, { recursive: true, force: true });
        await fs.copyFile(path.join(root, 'options', '3.png'), p);
      }
    }
  });

  /** Rewrites run.json through `edit`, pretty-printed like the tool writes it. */
  async function tamper(edit: (r: Json) => void): Promise<string> {
    const r = JSON.parse(original) as Json;
    edit(r);
    let text = `${JSON.stringify(r, null, 2)}\n`;
    if (text.length > 7 * 1024 * 1024) text = `${JSON.stringify(r)}\n`; // big records on one line, under the byte cap
    await fs.writeFile(file, text);
    return text;
  }

  it('a good record loads, and is listed', async () => {
    const loaded = await loadRunRecord(root, id);
    assert.equal(loaded.record?.id, id, loaded.diagnostics?.map(formatDiagnostic).join('\n'));
    assert.deepEqual(
      (await listRuns(root)).map((r) => r.id),
      [id],
    );
  });

  it('a record whose id is not its folder name is refused at the id', async () => {
    const text = await tamper((r) => (r.id = '2020-01-01T00-00-00Z-evil'));
    const line = await brokenLine(root, id);
    assert.equal(
      line,
      `runs/${id}/run.json:${posOf(text, '"2020-01-01T00-00-00Z-evil"')}: error: The record's id "2020-01-01T00-00-00Z-evil" is not the name of its folder ("${id}"); a record is used only in its own folder.`,
    );
  });

  const traversal: [string, (r: Json) => void, string, RegExp][] = [
    [
      'an option file outside options/',
      (r) => (r.options[0].file = '../../../../etc/passwd'),
      '"../../../../etc/passwd"',
      /The file of option "1" must be "options\/1.png"/,
    ],
    ['an option id not in options/', (r) => (r.options[1].id = '../x'), '"../x"', /option "\.\.\/x", which is not an image in options\//],
    ['a remix id that is no remix id', (r) => (r.options[3].id = '../../evil'), '"../../evil"', /is not a remix id/],
    [
      'a remix file in another run',
      (r) => (r.options[3].file = 'runs/2020-01-01T00-00-00Z-aaaa/iteration-1/remix.png'),
      '"runs/2020-01-01T00-00-00Z-aaaa/iteration-1/remix.png"',
      /must be runs\/.*\/iteration-1\/remix.png/,
    ],
    [
      'an iteration remix file with traversal',
      (r) => (r.iterations[0].remix.file = '../../../x.png'),
      '"../../../x.png"',
      /must be iteration-1\/remix.png/,
    ],
    ['an iteration remix of another iteration', (r) => (r.iterations[0].remix.id = 'r7'), '"r7"', /must be called r1/],
    [
      'a candidate that is no option',
      (r) => r.iterations[1].candidates.push('/etc/shadow'),
      '"/etc/shadow"',
      /candidate "\/etc\/shadow" is not one of the record's options/,
    ],
    ['a final pick that is no option', (r) => (r.finalPick = 'nope'), '"nope"', /final pick "nope"/],
    [
      'turns beyond the bound',
      (r) => (r.settings.turnsPerAgent = 500),
      '"turnsPerAgent": 500',
      /settings.turnsPerAgent: turnsPerAgent must be a whole number from 1 to 10 \(found 500\)/,
    ],
    [
      'iterations beyond the bound',
      (r) => (r.settings.iterations = 11),
      '"iterations": 11',
      /iterations must be a whole number from 1 to 10 \(found 11\)/,
    ],
    [
      'an image size beyond the bound',
      (r) => (r.settings.imageMaxSide = 100000),
      '"imageMaxSide": 100000',
      /imageMaxSide must be a whole number from 256 to 4096/,
    ],
    ['more iterations than the settings', (r) => (r.settings.iterations = 1), '"index": 2', /more than its settings allow/],
    ['a control character in an id', (r) => (r.options[1].id = 'a\u001b[2Jb'), '"a\\u001b[2Jb"', /"a\\x1b\[2Jb"/],
  ];
  for (const [what, edit, at, message] of traversal) {
    it(`${what} is refused, at the offending value`, async () => {
      const text = await tamper(edit);
      const line = await brokenLine(root, id);
      const [, pos, msg] = /^runs\/[^:]+\/run\.json:(\d+:\d+): error: (.*)$/.exec(line) ?? [];
      assert.ok(pos, line);
      assert.equal(pos, expectedPos(text, at), line);
      assert.match(msg!, message);
      assert.ok(!/[\u0000-\u001f]/.test(line), 'no control character reaches the line');
      await assert.rejects(readRunRecord(root, id), (e: unknown) => e instanceof RunRecordError && e.message === line);
      const entries = await listRunEntries(root);
      assert.deepEqual(
        entries.map((e) => e.diagnostics?.map(formatDiagnostic)),
        [[line]],
      );
      assert.deepEqual(await listRuns(root), [], 'a broken run is not offered');
    });
  }

  /** The text a `line:col` of a diagnostic points at (from there to the end of its line). */
  function pointedAt(text: string, line: string): string {
    const [, l, c] = /run\.json:(\d+):(\d+): error: /.exec(line) ?? [];
    assert.ok(l && c, line);
    return text.split('\n')[Number(l) - 1]!.slice(Number(c) - 1);
  }
  const chainPrompt = (k: number, base: boolean, parts: [number, number][] = [[k, 1]]): Json => ({
    id: `c${k}`,
    iteration: 1,
    kind: 'proxy-turn',
    model: 'm',
    at: 't',
    ...(base ? { base: { prompt: `c${k - 1}`, messages: k } } : {}),
    parts,
  });
  const bounds: [string, (r: Json) => void, string, RegExp][] = [
    [
      'candidates listed 240 times',
      (r) => (r.iterations[1].candidates = Array.from({ length: 240 }, () => r.iterations[1].candidates).flat()),
      '"1"',
      /The candidate "1" is listed twice; a record lists each id once\./,
    ],
    [
      'a ranking that names an id twice',
      (r) => r.iterations[0].ranking.push(r.iterations[0].ranking[0]),
      '"',
      /The ranked id ".*" is listed twice/,
    ],
    ['a remix input named twice', (r) => (r.iterations[0].remix.from = ['1', '1']), '"1"', /The remix input "1" is listed twice/],
    [
      'a message id used twice',
      (r) => (r.iterations[1].messages[0].id = r.iterations[0].messages[0].id),
      '"i1-m1"',
      /The message id "i1-m1" is listed twice/,
    ],
    [
      'a mention named twice',
      (r) => (r.iterations[0].messages[0].mentions = ['d1', 'd1']),
      '"d1"',
      /The mentioned id "d1" is listed twice/,
    ],
    [
      'a message pinned twice',
      (r) =>
        (r.pins = [
          { message: 'i1-m1', by: 'd1', at: 't' },
          { message: 'i1-m1', by: 'd2', at: 't' },
        ]),
      '"i1-m1"',
      /The pinned message "i1-m1" is listed twice/,
    ],
    ['a prompt id used twice', (r) => r.prompts.push({ ...r.prompts[0] }), `"${'p'}`, /The prompt id ".*" is listed twice/],
    [
      'more messages than the limit',
      (r) =>
        (r.iterations[0].messages = Array.from({ length: 50_001 }, (_, i) => ({
          speaker: 'd1',
          turn: null,
          content: '',
          id: `i1-m${i + 1}`,
        }))),
      '[',
      /more than 50000 messages \(docs\/security\.md "Limits"\)/,
    ],
    [
      'more prompts than the limit',
      (r) => (r.prompts = Array.from({ length: 50_001 }, (_, k) => chainPrompt(k, false))),
      '{',
      /The record has 50001 prompts, more than 50000/,
    ],
    [
      'a base chain 30 000 deep',
      (r) => (r.prompts = Array.from({ length: 30_000 }, (_, k) => chainPrompt(k, k > 0))),
      '{',
      /Prompt "c10001" is built on a chain of more than 10000 earlier prompts/,
    ],
    [
      'a chain that expands past the message limit',
      (r) =>
        (r.prompts = Array.from({ length: 300 }, (_, k) => ({
          ...chainPrompt(
            k,
            k > 0,
            Array.from({ length: 400 }, (_, n) => [n, 1] as [number, number]),
          ),
          base: k > 0 ? { prompt: `c${k - 1}`, messages: k * 400 } : undefined,
        }))),
      '[',
      /Prompt "c250" expands to more than 100000 messages/,
    ],
    [
      'a base that takes more than its base has',
      (r) => (r.prompts = [chainPrompt(0, false), { ...chainPrompt(1, true), base: { prompt: 'c0', messages: 5 } }]),
      '5',
      /takes the first 5 messages of "c0", which has 1 message\./,
    ],
    [
      'a base that is a later prompt',
      (r) => (r.prompts = [{ ...chainPrompt(0, false), base: { prompt: 'c1', messages: 1 } }, chainPrompt(1, false)]),
      '"c1"',
      /is based on "c1", which is not an earlier prompt/,
    ],
    [
      'a part range beyond the line limit',
      (r) => (r.prompts = [chainPrompt(0, false, [[1_999_999, 5]])]),
      '[',
      /refers to lines beyond line 2000000 of prompts\.jsonl/,
    ],
  ];
  for (const [what, edit, startsWith, message] of bounds) {
    it(`bounds: ${what} is refused in one line at the offending value`, async () => {
      const text = await tamper(edit);
      const line = await brokenLine(root, id);
      assert.match(line, new RegExp(`^runs/${id}/run\\.json:\\d+:\\d+: error: `));
      assert.match(line, message);
      assert.ok(pointedAt(text, line).startsWith(startsWith), `${line} points at: ${pointedAt(text, line).slice(0, 80)}`);
    });
  }

  it('invalid JSON is reported at its line and column', async () => {
    await fs.writeFile(file, original.replace('"status": "completed",', '"status": "completed",,'));
    const line = await brokenLine(root, id);
    assert.match(
      line,
      new RegExp(`^runs/${id}/run\\.json:${posOf(original, '"status"').split(':')[0]}:\\d+: error: This is not valid JSON: `),
    );
  });

  it('a named file that is missing, a FIFO, or a link out of the review is reported naming the file', async () => {
    const opt = path.join(root, 'options', '1.png');
    const at = posOf(original, '"options/1.png"');
    await fs.rm(opt);
    await fs.mkdir(opt);
    assert.equal(await brokenLine(root, id), `runs/${id}/run.json:${at}: error: options/1.png, named here, is not a regular file.`);
    await fs.rm(opt, { recursive: true });
    execFileSync('mkfifo', [opt]);
    assert.equal(await brokenLine(root, id), `runs/${id}/run.json:${at}: error: options/1.png, named here, is not a regular file.`);
    await fs.rm(opt);
    const outside = path.join(await makeTempDir('tf-outside-'), 'secret.png');
    await fs.copyFile(path.join(root, 'options', '3.png'), outside);
    await fs.symlink(outside, opt);
    assert.match(
      await brokenLine(root, id),
      new RegExp(`^runs/${id}/run\\.json:${at}: error: options/1\\.png leads outside the review folder`),
    );
    // An option that has gone is no longer an option of the review: the record names an id options/ does not have.
    await fs.rm(opt);
    assert.match(await brokenLine(root, id), /option "1", which is not an image in options\//);
  });

  it('a FIFO in place of run.json is refused without hanging', async () => {
    await fs.rm(file);
    execFileSync('mkfifo', [file]);
    assert.match(await brokenLine(root, id), /run\.json is a named pipe \(FIFO\), not a regular file/);
    await fs.rm(file);
  });

  it('an older record (no message ids or kinds) still reads, and gets them', async () => {
    await tamper((r) => {
      for (const it of r.iterations) for (const m of it.messages) (delete m.id, delete m.kind);
    });
    const loaded = await loadRunRecord(root, id);
    assert.equal(loaded.record?.iterations[0]!.messages[0]!.id, 'i1-m1');
  });

  it('"run --resume" of a broken record exits 1 with that one line, asks no model and changes nothing', async function () {
    const cli = builtCli();
    if (!existsSync(cli)) this.skip();
    const text = await tamper((r) => {
      r.status = 'failed';
      r.options[0].file = '../outside.png';
    });
    const expected = await brokenLine(root, id);
    mock.reset();
    const env = { ...process.env, OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: mock.baseURL, TEAMFUSION_MAX_RETRIES: '0' };
    const child = spawn(process.execPath, [cli, 'run', root, '--resume', id], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 1);
    assert.equal(stderr, `${expected}\n`);
    assert.equal(mock.requests.length, 0, 'no request');
    assert.equal(await fs.readFile(file, 'utf8'), text, 'the record is unchanged');
  });

  it('the panel lists a broken run with its diagnostic and never shows it', async () => {
    await tamper((r) => (r.id = 'x'));
    const entries = await listRunEntries(root);
    const brokenRuns = entries.flatMap((e) =>
      e.diagnostics ? [{ id: e.id, problem: e.diagnostics.map(formatDiagnostic).join(' ') }] : [],
    );
    const state = buildPanelState({
      root,
      load: { diagnostics: [] },
      analysis: { error: 'n/a' },
      runs: [],
      brokenRuns,
      trusted: true,
      running: false,
      toWebviewUri: (p) => p,
    });
    assert.equal(state.brokenRuns?.[0]?.id, id);
    assert.match(state.brokenRuns![0]!.problem, new RegExp(`^runs/${id}/run\\.json:\\d+:\\d+: error: The record's id "x"`));
    assert.equal(state.run, undefined);
  });

  it('an id given on the command line that is not a run id is refused before any path is made', async () => {
    const loaded = await loadRunRecord(root, '../../etc');
    assert.ok(loaded.diagnostics && loaded.missing);
    assert.match(loaded.diagnostics[0]!.message, /"\.\.\/\.\.\/etc" is not a run id/);
  });
});

describe('setting bounds live in one place', () => {
  it('review.yaml, the command line, VS Code settings and the record check all use SETTING_BOUNDS', () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Json;
    const props = manifest.contributes.configuration.properties as Json;
    for (const [key, b] of Object.entries(SETTING_BOUNDS)) {
      assert.equal(props[`teamfusion.${key}`].minimum, b.min, key);
      assert.equal(props[`teamfusion.${key}`].maximum, b.max, key);
      const yaml = parseReviewConfig(`${key}: ${b.max + 1}\n`);
      assert.match(yaml.diagnostics[0]!.message, new RegExp(`${key} must be a whole number from ${b.min} to ${b.max}`));
      assert.equal(parseReviewConfig(`${key}: ${b.max}\n`).diagnostics.length, 0);
    }
    assert.throws(() => parseRunArgs(['r', '--iterations', String(SETTING_BOUNDS.iterations.max + 1)]), /from 1 to 10 \(found 11\)\.$/);
    assert.throws(() => parseRunArgs(['r', '--turns', '0']), /turns must be a whole number from 1 to 10/);
    assert.deepEqual(resolveVsCodeSettings((k) => (k === 'imageMaxSide' ? { globalValue: 5000 } : undefined)).warnings, [
      'The setting teamfusion.imageMaxSide (5000) is not a whole number of pixels from 256 to 4096; it is ignored.',
    ]);
  });
});

describe('JSON positions of values', () => {
  it('finds nested keys and indexes, the last of duplicate keys, and stops at the deepest found', () => {
    const text = '{\n  "a": [1, {"b": "x"}, 3],\n  "c": {"d": 1, "d": 2}\n}';
    assert.deepEqual(lineColAt(text, locateJsonValue(text, ['a', 1, 'b'])), { line: 2, column: 18 });
    assert.deepEqual(lineColAt(text, locateJsonValue(text, ['a', 2])), { line: 2, column: 24 });
    assert.deepEqual(lineColAt(text, locateJsonValue(text, ['c', 'd'])), { line: 3, column: 22 });
    assert.deepEqual(lineColAt(text, locateJsonValue(text, ['c', 'zz'])), { line: 3, column: 8 });
    assert.deepEqual(lineColAt(text, locateJsonValue(text, [])), { line: 1, column: 1 });
  });
  it('skips strings holding brackets and escaped quotes', () => {
    const text = '{"s": "a]}\\"{[", "t": [true]}';
    assert.equal(locateJsonValue(text, ['t', 0]), text.indexOf('true'));
  });
});
