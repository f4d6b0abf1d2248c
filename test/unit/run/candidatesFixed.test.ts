/**
 * Candidates are fixed for a run (issue 29): each option's sha256 is kept in run.json when the run starts, and an image
 * changed under the run (by a pull, by hand) stops it before the next round or on resume, in words naming the file,
 * with nothing sent and the record still readable. Through the real CLI against the scripted server.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { useCliAgainstMock, type CliRun } from '../cli/buildCli';
import { humanRunArgs } from '../../support/builtCli';
import { makeReview } from './fixtures';
import { runJson } from './helpers';

describe('candidates are fixed for a run', function () {
  this.timeout(90_000);
  const rig = useCliAgainstMock();
  const tf = (...args: string[]): Promise<CliRun> => rig.run(args);

  it('an option image changed while the run waits stops the resume in words naming the file; nothing is sent, the run stays readable', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const r = await tf(...humanRunArgs(root, 'd1', ['--json']));
    assert.equal(r.code, 3, r.stderr);
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    const started = await runJson(root, id);
    assert.deepEqual(
      started.options.map((o) => [o.file, /^[0-9a-f]{64}$/.test(o.sha256 ?? '')]),
      [
        ['options/1.png', true],
        ['options/2.png', true],
        ['options/3.png', true],
      ],
    );

    // A pull (or an edit) puts other bytes under options/2.png.
    const original = await fs.readFile(path.join(root, 'options', '2.png'));
    await fs.copyFile(path.join(root, 'options', '1.png'), path.join(root, 'options', '2.png'));
    assert.equal((await tf('say', root, id, '--as', 'd1', 'Image', '2.')).code, 0);
    const resumed = await tf('run', root, '--resume', id, '--json');
    assert.equal(resumed.code, 1, resumed.stderr);
    assert.match(resumed.stderr, /options\/2\.png has changed since this run started; candidates are fixed for a run, so it stops here/);
    assert.equal(rig.mock.requests.length, 0, 'nothing was sent about a changed candidate');
    const after = await runJson(root, id);
    assert.equal(after.status, 'failed');
    assert.match(after.error ?? '', /options\/2\.png has changed/);
    assert.deepEqual(after.options, started.options, 'the hashes the run started with are kept');

    // Put back as it was, the run goes on where it stopped.
    await fs.writeFile(path.join(root, 'options', '2.png'), original);
    const again = await tf('run', root, '--resume', id, '--json');
    assert.equal(again.code, 0, again.stderr);
    assert.equal((await runJson(root, id)).status, 'completed');
  });

  it('a record written before hashes were kept (options without sha256) still reads and resumes', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const r = await tf(...humanRunArgs(root, 'd1', ['--json']));
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    const file = path.join(root, 'runs', id, 'run.json');
    const old = JSON.parse(await fs.readFile(file, 'utf8')) as { options: { sha256?: string }[] };
    for (const o of old.options) delete o.sha256;
    await fs.writeFile(file, JSON.stringify(old, null, 2));
    await fs.copyFile(path.join(root, 'options', '1.png'), path.join(root, 'options', '2.png'));
    assert.equal((await tf('say', root, id, '--as', 'd1', 'Image', '2.')).code, 0);
    const resumed = await tf('run', root, '--resume', id, '--json');
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal((await runJson(root, id)).status, 'completed');
  });
});
