/**
 * A platform where sharp cannot load (the VSIX of another platform): validation and analysis still work, a run stops
 * before any model call with one sentence. The CLI runs in a child process whose `require('sharp')` fails, the way
 * sharp fails when its @img binary for the platform is not installed.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { imagesUnavailableReason, loadSharpWith } from '../../../src/core/images/sharp';
import { builtCli } from '../../support/builtCli';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const SAMPLE = path.join(REPO, 'samples', 'lumen-perfume');

const BLOCK_SHARP = `
const Module = require('module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'sharp') throw new Error("Could not load the \\"sharp\\" module using the win32-ia32 runtime\\nPossible solutions: …");
  return resolve.call(this, request, ...rest);
};
`;

describe('without sharp (an unsupported platform)', function () {
  this.timeout(60_000);
  let dir = '';
  let preload = '';

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-nosharp-'));
    preload = path.join(dir, 'block-sharp.js');
    await fs.writeFile(preload, BLOCK_SHARP);
    await fs.cp(SAMPLE, path.join(dir, 'review'), { recursive: true });
    await fs.rm(path.join(dir, 'review', 'runs'), { recursive: true, force: true });
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  function cli(...args: string[]) {
    return spawnSync(process.execPath, ['-r', preload, builtCli(), ...args], {
      encoding: 'utf8',
      timeout: 50_000,
      env: { ...process.env, OPENAI_API_KEY: 'sk-test-not-used', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', TEAMFUSION_MAX_RETRIES: '0' },
    });
  }

  it('explains in one sentence, naming the platform and sharp', () => {
    const why = imagesUnavailableReason(
      loadSharpWith(() => {
        throw new Error('Could not load the "sharp" module using the win32-ia32 runtime\nPossible solutions:\n- …');
      }),
    );
    assert.ok(why);
    assert.match(why, /cannot prepare images on this platform \(\w+-\w+\) because its image library, sharp, does not load here/);
    assert.equal(why.split(/[.!?](\s|$)/).filter((s) => s && s.trim()).length, 1, `one sentence: ${why}`);
    assert.equal(imagesUnavailableReason(loadSharpWith(() => () => undefined)), undefined, 'a working sharp has no reason');
  });

  it('validates and analyses the sample', () => {
    const v = cli('validate', path.join(dir, 'review'));
    assert.equal(v.status, 0, v.stderr + v.stdout);
    assert.match(v.stdout + v.stderr, /valid — 6 options, 4 designers/);
    const a = cli('analyze', path.join(dir, 'review'), '--json');
    assert.equal(a.status, 0, a.stderr);
    assert.ok((JSON.parse(a.stdout) as { kendall: { w: number } }).kendall.w > 0);
  });

  it('still finds a file that is not an image', async () => {
    const bad = path.join(dir, 'bad');
    await fs.cp(path.join(dir, 'review'), bad, { recursive: true });
    await fs.writeFile(path.join(bad, 'options', '3.png'), 'not a png');
    const v = cli('validate', bad);
    assert.equal(v.status, 1);
    assert.match(v.stdout + v.stderr, /options\/3\.png.*not a PNG, JPEG or WebP image/);
  });

  it('a run stops before any model call, saying why in one sentence, and stays resumable', async () => {
    const r = cli('run', path.join(dir, 'review'), '--iterations', '2', '--turns', '1');
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /cannot prepare images on this platform/);
    const [id] = await fs.readdir(path.join(dir, 'review', 'runs'));
    const record = JSON.parse(await fs.readFile(path.join(dir, 'review', 'runs', id!, 'run.json'), 'utf8')) as {
      status: string;
      error: string;
      iterations: unknown[];
    };
    assert.equal(record.status, 'failed');
    assert.match(record.error, /^TeamFusion cannot prepare images on this platform .*sharp.*\.$/);
  });
});
