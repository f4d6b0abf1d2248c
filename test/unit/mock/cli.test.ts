import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { parseCliArgs } from '../../support/openaiMock/cli';

const CLI = path.join(__dirname, '..', '..', 'support', 'openaiMock', 'cli.js');

describe('mock OpenAI: CLI', () => {
  it('parses its options', () => {
    assert.deepEqual(parseCliArgs([]), { port: 0, latency: 0, strict: true, fromRun: false, quiet: false });
    assert.deepEqual(parseCliArgs(['--port', '8123', '--latency=40', '--no-strict']), {
      port: 8123,
      latency: 40,
      strict: false,
      fromRun: false,
      quiet: false,
    });
    assert.deepEqual(parseCliArgs(['--from-run', '--quiet', '--label', 'Scripted reply:']), {
      port: 0,
      latency: 0,
      strict: true,
      fromRun: true,
      quiet: true,
      label: 'Scripted reply:',
    });
    assert.throws(() => parseCliArgs(['--port', 'abc']), /port/);
    assert.throws(() => parseCliArgs(['--bogus']), /Unknown option/);
  });

  it('prints its base URL first, logs each request without the key, and stops on SIGTERM', async function () {
    this.timeout(15_000);
    const child = spawn(process.execPath, [CLI, '--latency', '5'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const lines = readline.createInterface({ input: child.stdout });
      const iterator = lines[Symbol.asyncIterator]();
      const first = await iterator.next();
      const match = /^OPENAI_BASE_URL=(http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(String(first.value));
      assert.ok(match, `first line: ${String(first.value)}`);
      const baseURL = match[1];
      const res = await fetch(`${baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-very-secret' },
        body: JSON.stringify({ model: 'gpt-4o' }),
      });
      assert.equal(res.status, 400);
      const log = await iterator.next();
      assert.match(String(log.value), /^POST \/v1\/chat\/completions 400 \d+ms spec: .*messages/);
      assert.doesNotMatch(String(log.value), /very-secret/);
      const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      assert.equal(await exit, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
