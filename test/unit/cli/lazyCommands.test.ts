/**
 * The command line loads a command's modules when that command runs (src/cli/main.ts): the help, a command's help and an
 * unknown command start none of them. Seen from outside, through the schema library every command's checks are built
 * with: zod marks the process (globalThis.__zod_globalConfig) the moment its core is loaded.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { builtCli, REPO_ROOT } from '../../support/builtCli';
import { makeTempDir } from '../run/fixtures';

describe('the command line loads a command only when it runs', () => {
  let probe = '';
  before(async () => {
    builtCli();
    probe = path.join(await makeTempDir('tf-lazy-'), 'probe.js');
    await fs.writeFile(
      probe,
      "process.on('exit', () => process.stderr.write(`\\nschemas loaded: ${globalThis.__zod_globalConfig !== undefined}\\n`));\n",
    );
  });
  after(async () => fs.rm(path.dirname(probe), { recursive: true, force: true }));

  /** Whether running the built CLI with `args` loaded the schema library, and its exit code. */
  function loads(...args: string[]): { loaded: boolean; status: number | null } {
    const r = spawnSync(process.execPath, ['-r', probe, builtCli(), ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
    const m = /schemas loaded: (true|false)\n$/.exec(r.stderr);
    assert.ok(m, `the probe did not report (stderr: ${r.stderr.slice(-300)})`);
    return { loaded: m[1] === 'true', status: r.status };
  }

  it('--help, `run --help` and an unknown command load no command', () => {
    assert.deepEqual(loads('--help'), { loaded: false, status: 0 });
    assert.deepEqual(loads('run', '--help'), { loaded: false, status: 0 });
    assert.deepEqual(loads('vlidate'), { loaded: false, status: 2 });
  });

  it('a command that runs loads its modules (the probe sees them)', () => {
    assert.deepEqual(loads('validate', path.join('samples', 'lumen-perfume')), { loaded: true, status: 0 });
  });
});
