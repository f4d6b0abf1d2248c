/**
 * Labels that tell the truth (issue 38, item 5): judge, criteria, code-discussion and the forecasts of rerank, answered by
 * the bundled scripted server, say so where a run does — on the terminal, in the files they write, in --json — and never
 * name a model that did not answer. Scripted criteria are written apart from the team's, so analyze never shows them as
 * theirs; run.json's endpoints gain the judge part.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeBriefRunReview, makeReview } from '../run/fixtures';
import { runJson } from '../run/helpers';

const SAID = "TeamFusion's bundled scripted server, not a model";

describe('commands answered by the scripted server say so', function () {
  this.timeout(240_000);
  const rig = useCliAgainstMock();
  let scripted: MockOpenAI;
  before(async () => {
    scripted = await MockOpenAI.start({ scripted: true });
  });
  after(async () => {
    await scripted.close();
  });
  const tf = (...args: string[]) => rig.run(args, { ...rig.env, OPENAI_BASE_URL: scripted.baseURL });

  it('judge: terminal, judge.json, --json and run.json endpoints.judge; no model named', async () => {
    const root = await makeBriefRunReview(3);
    const r = await tf('run', root, '--task', 'brief', '--iterations', '1', '--turns', '1', '--json');
    assert.equal(r.code, 0, r.stderr);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    const model = (await runJson(root, id)).settings.chatModel;
    const judged = await tf('judge', root, id);
    assert.equal(judged.code, 0, judged.stderr);
    assert.match(judged.stdout, new RegExp(`^Scripted: these verdicts came from ${SAID}`));
    assert.match(judged.stdout, new RegExp(`The judge \\(${SAID}\\) on run`));
    assert.ok(!judged.stdout.includes(`(${model})`), 'the model that did not answer is not named as the judge');
    const file = JSON.parse(await fs.readFile(path.join(root, 'runs', id, 'judge.json'), 'utf8')) as { scripted?: boolean };
    assert.equal(file.scripted, true);
    const json = JSON.parse((await tf('judge', root, id, '--json')).stdout) as { scripted?: boolean; reused: boolean };
    assert.deepEqual([json.scripted, json.reused], [true, true]);
    const record = await runJson(root, id);
    assert.equal(record.endpoints?.judge?.scripted, true);
    assert.equal(record.endpoints?.chat.scripted, true);
    assert.equal(record.scripted, true, 'every part scripted');
  });

  it('code-discussion and the forecasts: said on the terminal and in the files; --json carries scripted', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    const r = await tf('run', root, '--iterations', '2', '--turns', '1', '--mode', 'together', '--order', 'fixed', '--json');
    assert.equal(r.code, 0, r.stderr);
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    const coded = await tf('code-discussion', root, id);
    assert.equal(coded.code, 0, coded.stderr);
    assert.match(coded.stdout, new RegExp(`^Scripted: these codes came from ${SAID}`));
    assert.match(coded.stdout, new RegExp(`with ${SAID} \\(`));
    const json = JSON.parse((await tf('code-discussion', root, id, '--json')).stdout) as { scripted?: boolean };
    assert.equal(json.scripted, true);

    const made = await tf('rerank', root, id);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, new RegExp(`Forecasts sealed in .*\\); answered by ${SAID}; they are shown only after the re-rank`));
    const forecast = JSON.parse(await fs.readFile(path.join(root, 'runs', id, 'forecast.json'), 'utf8')) as { scripted?: boolean };
    assert.equal(forecast.scripted, true);
  });

  it("criteria: written apart from the team's; analyze never shows them as the team's", async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    const found = await tf('criteria', root);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, new RegExp(`^Scripted: these criteria came from ${SAID}, not from the team's words`));
    assert.match(found.stdout, /Written: criteria\.scripted\.json, criteria\.scripted\.md/);
    await assert.rejects(fs.stat(path.join(root, 'criteria.json')), "the team's criteria.json is not written");
    const file = JSON.parse(await fs.readFile(path.join(root, 'criteria.scripted.json'), 'utf8')) as { scripted?: boolean };
    assert.equal(file.scripted, true);
    assert.match(await fs.readFile(path.join(root, 'criteria.scripted.md'), 'utf8'), /^# Scripted criteria \(not the team's\)/);
    const analyzed = await tf('analyze', root);
    assert.equal(analyzed.code, 0, analyzed.stderr);
    assert.doesNotMatch(analyzed.stdout, /Criteria the team splits on/);
    const json = JSON.parse((await tf('analyze', root, '--json')).stdout) as { criteria?: unknown };
    assert.equal(json.criteria ?? null, null);
  });
});
