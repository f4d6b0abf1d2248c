// The CLI suites' shared set-up (buildCli.ts): the built CLI (dist/cli.js), and the CLI against the mock in an environment of its own.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { TEST_KEY } from '../run/helpers';
import { startCli, useBuiltCli, useCliAgainstMock } from './buildCli';

describe('CLI test set-up: useBuiltCli', function () {
  this.timeout(60_000);
  const built = useBuiltCli();

  it('finds the built CLI (dist/cli.js) and runs it', async () => {
    assert.ok(existsSync(built.cli));
    const r = await built.run('--help');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /teamfusion/);
  });

  it('startCli shows what the process printed while it runs, and its end', async () => {
    const running = startCli(built.cli, ['analyze', '/nonexistent-review-folder']);
    const r = await running.done;
    assert.notEqual(r.code, 0);
    assert.equal(running.stderr(), r.stderr);
    assert.equal(running.stdout(), r.stdout);
  });
});

describe('CLI test set-up: useCliAgainstMock', function () {
  this.timeout(60_000);
  const saved = { ...process.env };
  before(() => {
    // Registered before the rig's own hooks run, so the rig sees these.
    process.env.OPENAI_ORG_ID = 'org-of-this-machine';
    process.env.TEAMFUSION_CHAT_MODEL = 'from-this-machine';
    process.env.GIT_DIR = '/somewhere';
  });
  after(() => {
    for (const k of ['OPENAI_ORG_ID', 'TEAMFUSION_CHAT_MODEL', 'GIT_DIR']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  const rig = useCliAgainstMock({ drop: /^GIT_/ });

  it("an environment of its own: the test key, the mock, no retries; the machine's OPENAI_*, TEAMFUSION_* and dropped variables gone (mockSuite's environment)", () => {
    assert.equal(rig.env.OPENAI_API_KEY, TEST_KEY);
    assert.equal(rig.env.OPENAI_BASE_URL, rig.mock.baseURL);
    assert.equal(rig.env.TEAMFUSION_MAX_RETRIES, '0');
    assert.ok(rig.env.XDG_CACHE_HOME);
    assert.equal(rig.env.OPENAI_ORG_ID, undefined);
    assert.equal(rig.env.TEAMFUSION_CHAT_MODEL, undefined);
    assert.equal(rig.env.GIT_DIR, undefined);
  });

  it('runs the CLI against the mock; the mock starts each test empty', async () => {
    assert.equal(rig.mock.requests.length, 0);
    rig.mock.latencyMs = 5;
    const r = await rig.run(['--help']);
    assert.equal(r.code, 0, r.stderr);
  });

  it('before each test the mock has forgotten the last one (no latency)', () => {
    assert.equal(rig.mock.latencyMs, 0);
  });
});
