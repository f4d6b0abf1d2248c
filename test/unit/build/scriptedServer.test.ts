/**
 * `npm run scripted-server`: the bundled scripted server alone on 127.0.0.1. It prints exactly one line,
 * OPENAI_BASE_URL=http://127.0.0.1:<port>/v1, answers there (labelled, from the run's own texts) and serves until stopped.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';
import { cleanCliEnv } from '../run/helpers';
import { waitFor } from '../../support/waitFor';
import { portOpen } from '../../support/portOpen';

const REPO = path.resolve(__dirname, '../../../..');

describe('npm run scripted-server', function () {
  this.timeout(120_000);

  it('is the package script that starts scripts/scripted-server.mjs', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.equal(pkg.scripts['scripted-server'], 'node scripts/scripted-server.mjs');
  });

  it('builds its bundle beside its place and renames it in: a process loading it meanwhile reads a whole one', async () => {
    const m = (await import(pathToFileURL(path.join(REPO, 'scripts', 'scriptedServer.mjs')).href)) as {
      buildScriptedServer: () => Promise<string>;
    };
    const first = await m.buildScriptedServer();
    const before = statSync(first).ino;
    const again = await m.buildScriptedServer();
    assert.equal(again, first);
    // Written in place, the file would keep its inode (and be half-written for a moment); renamed in, it is a new file.
    assert.notEqual(statSync(again).ino, before, 'the bundle is a new file, renamed into place');
    assert.deepEqual(
      readdirSync(path.dirname(again)).filter((f) => f.endsWith('.part')),
      [],
      'no part file is left beside it',
    );
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`prints one OPENAI_BASE_URL line, answers a chat labelled as scripted, and stops on ${signal}`, async () => {
      const child = spawn(process.execPath, [path.join(REPO, 'scripts', 'scripted-server.mjs')], {
        cwd: REPO,
        env: cleanCliEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
      try {
        await waitFor(
          'the base URL line',
          () => out.includes('\n'),
          undefined,
          () => err,
        );
        assert.match(out, /^OPENAI_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1\n$/);
        const baseURL = out.trim().split('=')[1]!;
        const res = await fetch(`${baseURL}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer any' },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Which is stronger, Image 1 or Image 2?' }] }),
        });
        assert.equal(res.status, 200);
        const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
        assert.match(body.choices[0]!.message.content, /^Scripted reply: /);
        assert.equal(out.split('\n').length, 2, `exactly one line on stdout: ${out}`);
        child.kill(signal);
        assert.equal(await exited, 0, err);
        assert.equal(await portOpen(baseURL), false, 'the server stopped');
      } finally {
        child.kill('SIGKILL');
      }
    });
  }
});
