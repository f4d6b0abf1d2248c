import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { useBuiltCli } from '../cli/buildCli';
import { TEST_KEY } from '../run/helpers';
import { RUN_ID, categoryFor, reviewWithRun, scriptedCoder } from './fixtures';
import { writeRunRecord } from '../../../src/core/record/store';

describe('teamfusion code-discussion (command line)', function () {
  this.timeout(90_000);
  const cli = useBuiltCli();
  let mock: MockOpenAI;
  const saved: Record<string, string | undefined> = {};
  before(async () => {
    mock = await MockOpenAI.start();
    for (const k of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'TEAMFUSION_MAX_RETRIES', 'TEAMFUSION_PRICES']) saved[k] = process.env[k];
    process.env.OPENAI_API_KEY = TEST_KEY;
    process.env.OPENAI_BASE_URL = mock.baseURL;
    process.env.TEAMFUSION_MAX_RETRIES = '0';
    delete process.env.TEAMFUSION_PRICES;
  });
  after(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await mock.close();
  });
  beforeEach(() => mock.reset());

  it('--json prints analysis.json; exit 0; a second call sends nothing', async () => {
    const { root } = await reviewWithRun();
    scriptedCoder(mock);
    const r = await cli.run('code-discussion', root, RUN_ID, '--json');
    assert.equal(r.code, 0, r.stderr);
    const printed = JSON.parse(r.stdout);
    const onDisk = JSON.parse(await fs.readFile(path.join(root, 'runs', RUN_ID, 'analysis.json'), 'utf8'));
    assert.deepEqual(printed, onDisk);
    assert.equal(printed.bales.length, 11);
    assert.equal(printed.bales[0].category, categoryFor('i1-m1'));
    assert.ok(printed.stance.rows.length === 3);
    assert.ok(!r.stdout.includes(TEST_KEY) && !r.stderr.includes(TEST_KEY));
    mock.reset();
    const again = await cli.run('code-discussion', root, RUN_ID);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Coded 11 messages .*0 new requests, 11 codes reused/);
    assert.match(again.stdout, /Stance: 1 kept their designer's top choice, 2 yielded \(d2 → 1; d3 → nothing\)\./);
    assert.equal(mock.requests.length, 0);
  });

  it('exit 1 with the uncoded ids when a message stays without a valid code', async () => {
    const { root } = await reviewWithRun();
    scriptedCoder(mock, (ids) => ({
      kind: 'json',
      value: { codes: ids.map((id) => ({ message: id, category: id === 'i2-m5' ? 0 : categoryFor(id) })) },
    }));
    const r = await cli.run('code-discussion', root, RUN_ID);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /1 message could not be coded after 3 attempts and is listed as uncoded: i2-m5\./);
    const a = JSON.parse(await fs.readFile(path.join(root, 'runs', RUN_ID, 'analysis.json'), 'utf8'));
    assert.deepEqual(a.uncoded, ['i2-m5']);
  });

  it('more than 100 requests: the count and estimated cost are said, nothing is sent without --yes; with --yes it codes', async () => {
    const { root, record } = await reviewWithRun();
    record.iterations[0]!.messages = Array.from({ length: 1000 }, (_, i) => ({
      id: `i1-m${i + 1}`,
      kind: 'proxy' as const,
      speaker: `d${(i % 3) + 1}`,
      turn: null,
      content: `Point ${i + 1}: Image ${(i % 4) + 1}.`,
    }));
    await writeRunRecord(root, record);
    scriptedCoder(mock);
    const r = await cli.run('code-discussion', root, RUN_ID);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0]!,
      /^teamfusion code-discussion: Coding run \S+ would send 126 requests for 1,005 messages \(about \$\d+\.\d\d\), more than 100 requests; nothing was sent\. Confirm to go ahead \(on the command line: run it again with --yes\)\.$/,
    );
    assert.equal(mock.requests.length, 0);
    assert.ok(!existsSync(path.join(root, 'runs', RUN_ID, 'analysis.json')));
    const yes = await cli.run('code-discussion', root, RUN_ID, '--yes');
    assert.equal(yes.code, 0, yes.stderr);
    assert.match(yes.stderr, /Sending 126 requests for 1,005 messages \(about \$\d+\.\d\d\) \(--yes\)\./);
    assert.equal(mock.requests.length, 126);
  });

  it('a batch id that is not an id the API gives ("..") is refused naming analysis.json and the place; --force codes again', async () => {
    const { root } = await reviewWithRun();
    scriptedCoder(mock);
    assert.equal((await cli.run('code-discussion', root, RUN_ID)).code, 0);
    const file = path.join(root, 'runs', RUN_ID, 'analysis.json');
    const a = JSON.parse(await fs.readFile(file, 'utf8'));
    a.batch = { id: '..', inputFileId: 'file-1', status: 'in_progress', createdAt: '2026-11-21T22:40:05Z', requests: {} };
    const text = `${JSON.stringify(a, null, 2)}\n`;
    await fs.writeFile(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('"id": ".."')) + 1;
    mock.reset();
    const r = await cli.run('code-discussion', root, RUN_ID);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^teamfusion code-discussion: runs/${RUN_ID}/analysis\\.json:${line}:\\d+: error: batch\\.id: The batch id must be an id the API gave`,
      ),
    );
    assert.equal(mock.requests.length, 0);
    scriptedCoder(mock);
    const forced = await cli.run('code-discussion', root, RUN_ID, '--force');
    assert.equal(forced.code, 0, forced.stderr);
  });

  it('an unknown run: exit 1 in words, nothing written, no request; bad flags are usage errors (2)', async () => {
    const { root } = await reviewWithRun();
    const r = await cli.run('code-discussion', root, '2026-01-01T00-00-00Z-beef');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /There is no run "2026-01-01T00-00-00Z-beef"/);
    assert.equal(existsSync(path.join(root, 'runs', '2026-01-01T00-00-00Z-beef')), false);
    assert.equal(mock.requests.length, 0);
    const missing = await cli.run('code-discussion', path.join(root, 'no-such-review'), RUN_ID);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no-such-review is not a review folder \(it does not exist\); nothing was written or sent\./);
    assert.equal((await cli.run('code-discussion', root)).code, 2);
    assert.equal((await cli.run('code-discussion', root, RUN_ID, '--max-wait', 'soon')).code, 2);
    // --poll-interval has a floor: a batch is never asked after in a busy loop.
    for (const fast of ['0', '0.01', '0.999']) {
      const r = await cli.run('code-discussion', root, RUN_ID, '--batch', '--poll-interval', fast);
      assert.equal(r.code, 2, fast);
      assert.match(r.stderr, new RegExp(`--poll-interval must be at least 1 second \\(found "${fast.replace('.', '\\.')}"\\)`));
    }
    assert.equal(mock.requests.length, 0);
  });

  it('--batch with a short --max-wait: the pending batch is said in words (exit 0) and collected by the next call', async () => {
    const { root } = await reviewWithRun();
    mock.batch.settings.pendingPolls = 2;
    scriptedCoder(mock);
    const first = await cli.run('code-discussion', root, RUN_ID, '--batch', '--poll-interval', '1', '--max-wait', '0');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /The batch batch_mock\d+ is still validating; it is saved in analysis\.json/);
    const second = await cli.run('code-discussion', root, RUN_ID, '--poll-interval', '1', '--max-wait', '5', '--json');
    mock.batch.settings.pendingPolls = 0;
    assert.equal(second.code, 0, second.stderr);
    const a = JSON.parse(second.stdout);
    assert.equal(a.bales.length, 11);
    assert.equal(a.mode, 'batch');
    assert.equal(mock.requests.filter((q) => q.path === '/v1/batches').length, 1);
    assert.deepEqual(mock.specErrors(), []);
  });
});
