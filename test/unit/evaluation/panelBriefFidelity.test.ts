/**
 * Proxy fidelity of a brief run in the panel (issue 32, item 1): beside a member's ratings of their proxy, whether the
 * proxy's sealed forecast named that member's own blind choice of the pair — hit or miss, the persona-free control's, and
 * the lift — shown only once that member's preference file is saved, never before and never for a member who has not
 * chosen. The run, its blind pair and the forecasts are made by the real CLI against the scripted server.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ownFidelitySentence } from '../../../src/core/forecast/fidelity';
import { briefRunFidelity } from '../../../src/extension/panel/state/evaluation';
import { briefRunState } from '../../../src/extension/panel/state/briefState';
import { PanelStateSchema } from '../../../src/protocol/panel';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeBriefRunReview } from '../run/fixtures';
import { makeReviewWithRun, RUN_ID } from './fixtures';
import { runJson } from '../run/helpers';

describe("evaluation: a brief run's proxy fidelity in the panel, per member, after their own blind choice", function () {
  this.timeout(240_000);
  const rig = useCliAgainstMock();
  const logged: string[] = [];
  const made: string[] = [];
  after(async () => {
    for (const root of made) await fs.rm(root, { recursive: true, force: true });
  });
  const log = (line: string): void => void logged.push(line);
  const prefer = async (root: string, id: string, member: string, letter: string): Promise<void> => {
    await fs.mkdir(path.join(root, 'runs', id, 'preference'), { recursive: true });
    await fs.writeFile(path.join(root, 'runs', id, 'preference', `${member}.yaml`), `designer: ${member}\nprefer: ${letter}\n`);
  };

  it('nothing before the blind pair or before a choice; then only the members who chose, with hit, control and lift', async () => {
    const root = await makeBriefRunReview(3);
    made.push(root);
    const run = await rig.run(['run', root, '--task', 'brief', '--iterations', '1', '--turns', '1']);
    assert.equal(run.code, 0, run.stderr);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    assert.equal(await briefRunFidelity(root, await runJson(root, id), log), undefined, 'no blind pair yet');

    // m1's proxy forecasts A, m2's B, m3's tie; the persona-free control forecasts B.
    rig.mock.reset();
    rig.mock.enqueue('chat', ...['A', 'B', 'tie', 'B'].map((p) => ({ kind: 'json' as const, value: { prefer: p } })));
    const paired = await rig.run(['rerank', root, id]);
    assert.equal(paired.code, 0, paired.stderr);
    const record = await runJson(root, id);
    assert.deepEqual(await briefRunFidelity(root, record, log), {}, 'no forecast is shown before anyone has chosen');

    // m1 chooses A (their proxy's forecast: hit; the control's B: miss); m2 chooses A (proxy B: miss; control B: miss).
    await prefer(root, id, 'm1', 'A');
    await prefer(root, id, 'm2', 'A');
    const rows = await briefRunFidelity(root, record, log);
    assert.deepEqual(rows, { m1: { hit: true, controlHit: false, lift: 1 }, m2: { hit: false, controlHit: false, lift: 0 } });
    assert.ok(!Object.keys(rows ?? {}).includes('m3'), "m3 has not chosen: their proxy's forecast stays sealed");
    assert.deepEqual(logged, []);

    // The panel state carries the rows with the brief run shown, and the words beside m1's ratings of their proxy.
    const brief = await briefRunState(root, record, log);
    assert.ok(brief);
    const state = {
      root,
      title: 'brief',
      base: '',
      diagnostics: [],
      runs: [],
      trusted: true,
      running: false,
      brief: { ...brief, fidelity: rows },
    };
    assert.deepEqual(PanelStateSchema.parse(state).brief?.fidelity, rows);
    assert.equal(
      ownFidelitySentence(rows!.m1!),
      "Your proxy's forecast of your blind choice between the two briefs: hit (control miss, lift +1.00).",
    );
    assert.equal(
      ownFidelitySentence(rows!.m2!),
      "Your proxy's forecast of your blind choice between the two briefs: miss (control miss, lift +0.00).",
    );
    assert.equal(
      ownFidelitySentence({ hit: false, controlHit: true, lift: -1 }),
      "Your proxy's forecast of your blind choice between the two briefs: miss (control hit, lift −1.00).",
    );
    assert.equal(
      ownFidelitySentence({ hit: true, controlHit: null, lift: null }),
      "Your proxy's forecast of your blind choice between the two briefs: hit (control none, lift none).",
    );
  });

  it('a design run has no brief fidelity (its own is in "Did it help?")', async () => {
    const root = await makeReviewWithRun();
    made.push(root);
    assert.equal(await briefRunFidelity(root, await runJson(root, RUN_ID), log), undefined);
  });
});
