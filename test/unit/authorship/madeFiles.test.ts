/**
 * Seals that prove who made them (issue 39, item 3), with real git: forecast.json and the blind re-rank set count only as
 * the run's driver committed them, and criteria.json only as its maker (the member who found it, the author of its first
 * commit) committed it, each unchanged since. The forgeries here pass every seal — forecast.json and criteria.json
 * rewritten with the same content in another layout (their hashes still agree), two blind images swapped (images carry no
 * seal) — and are still not counted: the reader names the file, the commit and its author.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { makeTempDir } from '../run/fixtures';
import { forecastPrompt } from '../../support/forecastRuns';
import { editRun, makeReviewWithRun, RUN_ID, writeRerankRanking } from '../evaluation/fixtures';
import { compareRun, makeRerankSet } from '../../../src/core/evaluation';
import { writeForecastFile } from '../../../src/core/forecast/forecastFile';
import { makeForecasts, ForecastRefusedError } from '../../../src/core/forecast/forecast';
import type { ChatBackend } from '../../../src/core/llm/backend';
import {
  contentHash,
  criteriaState,
  findCriteria,
  loadForCriteria,
  readCriteriaSources,
  type CriteriaFile,
} from '../../../src/core/criteria';

const TEAM =
  '\nteam:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n  d4: { git: dev@example.com }\n';

describe('authorship: forecast.json, the re-rank set and criteria.json count only as their maker committed them (real git)', function () {
  this.timeout(300_000);

  /** Ana's review: a run with its blind set, d1's sealed forecast, three re-rankings and criteria.json; Ana commits it all. */
  async function made() {
    const seed = await makeReviewWithRun();
    await fs.appendFile(path.join(seed, 'review.yaml'), TEAM);
    const { key } = await makeRerankSet(seed, RUN_ID);
    const letters = Object.keys(key).sort();
    const sha = await writeForecastFile(seed, {
      runId: RUN_ID,
      task: 'design',
      letters,
      forecasts: [
        { kind: 'persona', designer: 'd1', ranking: letters, promptId: 'f1' },
        { kind: 'control', designer: null, ranking: [...letters].reverse(), promptId: 'f2' },
      ],
    });
    await editRun(seed, (r) => {
      r.prompts.push(forecastPrompt('f1', 'd1'), forecastPrompt('f2'));
      r.forecastSha256 = sha;
    });
    for (const d of ['d1', 'd2', 'd3'])
      await writeRerankRanking(path.join(seed, 'runs', RUN_ID, 'rerank'), d, Object.fromEntries(letters.map((l, i) => [l, i + 1])));
    const sources = await readCriteriaSources(await loadForCriteria(seed));
    const body: Omit<CriteriaFile, 'sha256'> = {
      at: '2026-12-06T18:00:00.000Z',
      model: 'gpt-4o',
      task: 'design',
      sources: sources.hashes,
      criteria: [{ name: 'Calm', description: 'A calm tone.', controversy: 0, stances: { d1: { stance: 'no-position' } } }],
      requests: 1,
    };
    await fs.writeFile(path.join(seed, 'criteria.json'), `${JSON.stringify({ ...body, sha256: contentHash(body) }, null, 2)}\n`);
    const t = await makeGitTeam(await makeTempDir('tf-made-'), seed, ['ana', 'ben'] as const);
    return { t, letters };
  }

  /** Ben rewrites `rel` (review-relative) with `change`, commits and pushes; Ana pulls. Returns Ben's commit. */
  async function benRewrites(
    t: Awaited<ReturnType<typeof made>>['t'],
    rel: string,
    change: (file: string) => Promise<void>,
  ): Promise<string> {
    git(t.clone.ben, 'pull', '--quiet', '--rebase');
    await change(path.join(t.review('ben'), ...rel.split('/')));
    git(t.clone.ben, 'add', '-A');
    git(t.clone.ben, 'commit', '--quiet', '-m', `${rel}, by Ben`);
    const forged = git(t.clone.ben, 'rev-parse', 'HEAD').trim();
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    return forged;
  }

  /** The same JSON in one line: every hash over its content still agrees. */
  const relayout = async (file: string): Promise<void> =>
    fs.writeFile(file, `${JSON.stringify(JSON.parse(await fs.readFile(file, 'utf8')))}\n`);

  it("forecast.json and the blind set: as the driver committed them they count; rewritten by Ben they are not counted, each said with Ben's commit", async () => {
    const { t } = await made();
    const ana = t.review('ana');
    const fair = await compareRun(ana, RUN_ID);
    assert.deepEqual(Object.keys(fair.fidelity?.byDesigner ?? {}), ['d1'], fair.problems.join('\n'));
    assert.notEqual(fair.after, null, fair.problems.join('\n'));
    assert.deepEqual(fair.authorship.notCounted, []);

    const forecast = `runs/${RUN_ID}/forecast.json`;
    const forged = await benRewrites(t, forecast, relayout);
    const c = await compareRun(ana, RUN_ID);
    assert.equal(c.fidelity, null, 'a forecast Ben committed is no fidelity');
    const said = `${forecast}:1:1: error: ${forecast} is not counted: commit ${forged.slice(0, 12)} by Ben <ben@example.com> wrote it, and the run's driver is ana@example.com (the author of the first commit of its run.json); the run's forecasts are made by its driver alone (each is sealed in run.json); git log -p -- ${forecast} shows what that commit changed.`;
    assert.ok(c.problems.includes(said), c.problems.join('\n'));
    assert.deepEqual(
      c.authorship.notCounted.map((n) => [n.file, n.commit, n.author]),
      [[forecast, forged, 'ben@example.com']],
    );
    assert.notEqual(c.after, null, "the re-rank set is still the driver's");
    // The forecast step never reseals what Ben wrote (refused before any model is asked).
    await assert.rejects(
      makeForecasts({ reviewRoot: ana, runId: RUN_ID, chat: {} as ChatBackend }),
      (e: Error) =>
        e instanceof ForecastRefusedError && e.message.includes(`${forecast} is not counted: commit ${forged.slice(0, 12)} by Ben`),
    );

    // Two blind images swapped (no seal covers them): the whole set is not counted, so no "after" is believed.
    const options = `runs/${RUN_ID}/rerank/options`;
    const swapped = await benRewrites(t, options, async (dir) => {
      const [a, b] = (await fs.readdir(dir)).sort();
      await fs.rename(path.join(dir, a!), path.join(dir, 'swap'));
      await fs.rename(path.join(dir, b!), path.join(dir, a!));
      await fs.rename(path.join(dir, 'swap'), path.join(dir, b!));
    });
    const s = await compareRun(ana, RUN_ID);
    assert.equal(s.after, null);
    assert.equal(s.acceptance, null);
    assert.match(
      s.missing ?? '',
      new RegExp(
        `^The re-rank set is not counted: ${options}/A\\.png is not counted: commit ${swapped.slice(0, 12)} by Ben <ben@example\\.com> wrote it, and the run's driver is ana@example\\.com .*the run's blind re-rank set is made by its driver alone`,
      ),
    );
  });

  it('criteria.json counts only as its maker committed it; uncommitted changes only on her machine', async () => {
    const { t } = await made();
    const state = async (who: 'ana' | 'ben') =>
      criteriaState(t.review(who), await readCriteriaSources(await loadForCriteria(t.review(who))));
    assert.equal((await state('ana')).state, 'current');
    assert.equal((await state('ben')).state, 'current', "Ana's criteria count on Ben's machine");

    // The same content in another layout: its hash agrees; on Ana's machine (hers) it counts, on Ben's it does not.
    await relayout(path.join(t.review('ana'), 'criteria.json'));
    assert.equal((await state('ana')).state, 'current');
    git(t.clone.ana, 'checkout', '--quiet', '--', '.');
    await relayout(path.join(t.review('ben'), 'criteria.json'));
    const mine = await state('ben');
    assert.equal(mine.state, 'edited');
    assert.match(
      mine.state === 'edited' ? mine.why : '',
      /^criteria\.json is not counted: it has changes not committed yet, and this machine's git user\.email is ben@example\.com, while its maker is d1 \(ana@example\.com, the author of its first commit\)/,
    );
    git(t.clone.ben, 'checkout', '--quiet', '--', '.');

    const forged = await benRewrites(t, 'criteria.json', relayout);
    const st = await state('ana');
    assert.equal(st.state, 'edited');
    assert.equal(
      st.state === 'edited' ? st.why : '',
      `criteria.json is not counted: commit ${forged.slice(0, 12)} by Ben <ben@example.com> wrote it, and its maker is d1 (ana@example.com, the author of its first commit); it counts only as its maker committed it`,
    );
  });

  it("finding the criteria again over Ana's criteria.json is hers alone: Ben's --force is refused before anything is sent or written", async () => {
    const { t } = await made();
    const file = path.join(t.review('ben'), 'criteria.json');
    const before = await fs.readFile(file, 'utf8');
    const sent = new Error('a request would be sent');
    const chat = (): ChatBackend => {
      throw sent;
    };
    await assert.rejects(
      findCriteria({ reviewRoot: t.review('ben'), chat, model: 'gpt-5-mini', force: true }),
      (e: Error) =>
        e !== sent &&
        /^criteria\.json was made by d1 \(ana@example\.com\), the author of its first commit, and only its maker finds the criteria again; this machine's git e-mail is not theirs, so nothing was sent or written\. To make it anew here, remove it \(git rm criteria\.json\)/.test(
          e.message,
        ),
    );
    assert.equal(await fs.readFile(file, 'utf8'), before, 'criteria.json is untouched');
    // On Ana's machine the same call goes past that door (it reaches the model).
    await assert.rejects(findCriteria({ reviewRoot: t.review('ana'), chat, model: 'gpt-5-mini', force: true }), (e) => e === sent);
  });
});
