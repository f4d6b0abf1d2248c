import { strict as assert } from 'node:assert';
import { blindText } from '../../../src/core/rerank/blindText';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { signTestP } from '../../../src/core/evaluation';
import { completedBriefRun, mockSuite, preferBlind, startCli } from './helpers';

describe('teamfusion rerank / compare on a brief run (command line)', function () {
  this.timeout(120_000);
  const suite = mockSuite({ fallback: () => briefFallback() });

  it('sign test p against a hand count: 3–1 → 0.625, 4–0 → 0.125, 0 untied → null', () => {
    assert.equal(signTestP(3, 4), 0.625);
    assert.equal(signTestP(1, 4), 0.625);
    assert.equal(signTestP(4, 4), 0.125);
    assert.equal(signTestP(2, 4), 1);
    assert.equal(signTestP(0, 0), null);
  });

  it('a completed brief run → rerank (A.md/B.md + key.json, drawn per run, never overwritten) → four preference files → compare --json gives the counts and the sign test', async () => {
    const { root, id, runDir } = await completedBriefRun(suite.env, 4, ['--iterations', '2', '--turns', '1']);
    const sent = suite.mock.requests.length;

    const early = await startCli(['compare', root, id, '--json'], suite.env).done;
    assert.equal(early.code, 1, 'no blind pair yet: no counts');
    assert.match(early.stderr, /There is no blind pair yet/);

    const top = await startCli(['rerank', root, id, '--top', '2'], suite.env).done;
    assert.equal(top.code, 1);
    assert.match(
      top.stderr,
      /^teamfusion rerank: --top picks how many of a design run's options go into its re-rank set; run \S+ is a brief run, whose blind pair is always its revised brief and its direct baseline\. Leave --top out\.\n$/,
    );
    await assert.rejects(fs.access(path.join(runDir, 'rerank')), 'nothing made');

    // The set alone (--no-forecast): the forecasts, one request per member and one control, are pinned in forecast.test.ts.
    const r = await startCli(['rerank', root, id, '--no-forecast'], suite.env).done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /two revisions of the brief \(A\.md, B\.md\)/);
    const key = JSON.parse(await fs.readFile(path.join(runDir, 'rerank', 'key.json'), 'utf8')) as Record<
      string,
      { kind: string; id: string; file: string }
    >;
    assert.deepEqual(Object.keys(key).sort(), ['A', 'B']);
    assert.deepEqual(
      Object.values(key)
        .map((e) => e.kind)
        .sort(),
      ['direct', 'teamfusion'],
    );
    const tfLetter = Object.keys(key).find((l) => key[l]!.kind === 'teamfusion')!;
    const directLetter = tfLetter === 'A' ? 'B' : 'A';
    // Each is its revision with the lines naming the method, a round or a model taken out (blindSet.test.ts pins which).
    const models = [
      ...new Set(
        (
          JSON.parse(await fs.readFile(path.join(runDir, 'run.json'), 'utf8')) as {
            prompts: { model?: string }[];
            settings: { chatModel: string };
          }
        ).prompts.map((p) => p.model ?? ''),
      ),
    ].filter(Boolean);
    const blindOf = async (file: string): Promise<string> => blindText(await fs.readFile(path.join(runDir, file), 'utf8'), models).text;
    assert.equal(
      await fs.readFile(path.join(runDir, 'rerank', `${tfLetter}.md`), 'utf8'),
      await blindOf(path.join('iteration-2', 'brief.md')),
    );
    assert.equal(await fs.readFile(path.join(runDir, 'rerank', `${directLetter}.md`), 'utf8'), await blindOf('baseline.md'));
    assert.doesNotMatch(await fs.readFile(path.join(runDir, 'rerank', `${tfLetter}.md`), 'utf8'), /round \d/);
    assert.deepEqual(
      (await fs.readdir(runDir)).filter((n) => n.startsWith('.') || (n.startsWith('rerank') && n !== 'rerank')),
      [],
      'no staging folder left',
    );

    // rerank twice: refused in words, nothing overwritten
    await fs.writeFile(path.join(runDir, 'rerank', 'A.md'), 'edited by hand\n');
    const again = await startCli(['rerank', root, id], suite.env).done;
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already has a re-rank folder .*never overwritten/);
    assert.equal(await fs.readFile(path.join(runDir, 'rerank', 'A.md'), 'utf8'), 'edited by hand\n');

    // 3 teamfusion, 1 direct; two survey answers; m4 missing a survey
    await preferBlind(runDir, { m1: 'teamfusion', m2: 'teamfusion', m3: 'teamfusion', m4: 'direct' });
    await fs.mkdir(path.join(runDir, 'survey'));
    await fs.writeFile(path.join(runDir, 'survey', 'm1.yaml'), 'designer: m1\nrepresentative: 5\nclarity: 4\nsatisfied: 4\n');
    await fs.writeFile(path.join(runDir, 'survey', 'm2.yaml'), 'designer: m2\nrepresentative: 4\nclarity: 3\nsatisfied: 5\n');
    const c = await startCli(['compare', root, id, '--json'], suite.env).done;
    assert.equal(c.code, 0, c.stderr);
    const out = JSON.parse(c.stdout) as {
      task: string;
      preference: { n: number; teamfusion: number; direct: number; tie: number; signTestP: number };
      survey: { n: number; representative: number; clarity: number };
      reference: { survey: { representative: number; clarity: number; satisfied: number } };
      coverage: { kept: number; changed: number; leftOut: number };
      missing: { preference: string[]; survey: string[] };
    };
    assert.equal(out.task, 'brief');
    assert.deepEqual(out.preference, { n: 4, teamfusion: 3, direct: 1, tie: 0, signTestP: 0.625 });
    assert.equal(out.survey.n, 2);
    assert.equal(out.survey.representative, 4.5);
    assert.deepEqual(out.reference.survey, { representative: 4.3, clarity: 3.8, satisfied: 4.2 });
    assert.deepEqual(out.missing, { preference: [], survey: ['m3', 'm4'] });
    const total = out.coverage.kept + out.coverage.changed + out.coverage.leftOut;
    assert.ok(total > 0, JSON.stringify(out.coverage));

    await preferBlind(runDir, { m4: 'teamfusion' });
    const all = await startCli(['compare', root, id, '--json'], suite.env).done;
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual((JSON.parse(all.stdout) as typeof out).preference, { n: 4, teamfusion: 4, direct: 0, tie: 0, signTestP: 0.125 });

    const text = await startCli(['compare', root, id], suite.env).done;
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /Of 4 members who chose blind, 4 preferred TeamFusion's revised brief, 0 the direct revision, and 0 called it a tie\./,
    );
    assert.match(text.stdout, /p = 0\.125\./);
    assert.match(text.stdout, /No survey file yet from: m3, m4\./);

    // a bad preference file: file:line:col, exit 1; a non-team file refused in words
    await fs.writeFile(path.join(runDir, 'preference', 'm2.yaml'), 'designer: m2\nprefer: C\n');
    await fs.writeFile(path.join(runDir, 'preference', 'zed.yaml'), 'designer: zed\nprefer: A\n');
    const bad = await startCli(['compare', root, id, '--json'], suite.env).done;
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, new RegExp(`^runs/${id}/preference/m2\\.yaml:2:9: error: prefer must be A, B or tie`, 'm'));
    assert.match(bad.stderr, /preference\/zed\.yaml:1:1: error: This file is named after "zed", who is not on the team of this run/);
    assert.equal((JSON.parse(bad.stdout) as typeof out).preference.n, 3, 'the valid files still count');
    assert.equal(suite.mock.requests.length, sent, 'rerank --no-forecast and compare send nothing');
  });
});
