import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { codeDiscussion } from '../../../src/core/analysis';
import { evaluateFolder, evaluationMarkdown } from '../../../src/core/evaluation';
import { writeRunRecord } from '../../../src/core/record/store';
import { clientFor } from '../run/helpers';
import { RUN_ID, categoryFor, reviewWithRun, scriptedCoder } from './fixtures';

describe('evaluate: the Bales category mix per mode and per review, when runs are coded', function () {
  this.timeout(60_000);
  let mock: MockOpenAI;
  let top = '';
  before(async () => {
    mock = await MockOpenAI.start();
    top = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-eval-ipa-'));
  });
  after(async () => {
    await mock.close();
    await fs.rm(top, { recursive: true, force: true });
  });

  it('pools the codes of analysis.json: shares per mode and per review; uncoded runs add nothing; a broken analysis.json is skipped in words', async () => {
    scriptedCoder(mock);
    // a: a legacy run (mode "together"), coded. b: the same run recorded with mode "separate-then-together", coded.
    // c: a run that is not coded. d: a broken analysis.json.
    const names = ['a', 'b', 'c', 'd'];
    for (const n of names) {
      const { root, record } = await reviewWithRun();
      if (n === 'b') await writeRunRecord(root, { ...record, settings: { ...record.settings, mode: 'separate-then-together' } });
      if (n === 'a' || n === 'b') await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(mock) });
      if (n === 'd') {
        await fs.mkdir(path.join(root, 'runs', RUN_ID), { recursive: true });
        await fs.writeFile(path.join(root, 'runs', RUN_ID, 'analysis.json'), '{"version": 2}');
      }
      await fs.rename(root, path.join(top, n));
    }
    const e = await evaluateFolder(top);
    // The scripted coder's answers: categoryFor(message id), the same 11 messages in both coded runs.
    const ids = ['i1-m1', 'i1-m2', 'i1-m3', 'i1-m4', 'i1-m5', 'i1-m6', 'i2-m1', 'i2-m2', 'i2-m3', 'i2-m4', 'i2-m5'];
    const expected: Record<string, number> = {};
    for (const id of ids) expected[String(categoryFor(id))] = (expected[String(categoryFor(id))] ?? 0) + 1;
    const shares = Object.fromEntries(
      Object.keys(expected)
        .sort((x, y) => Number(x) - Number(y))
        .map((k) => [k, Math.round((expected[k]! / ids.length) * 1000) / 1000]),
    );
    const review = (p: string) => e.reviews.find((r) => r.path === p)!;
    assert.deepEqual(review('a').categoryMix, shares);
    assert.deepEqual(review('b').categoryMix, shares);
    assert.equal(review('c').categoryMix, null);
    assert.deepEqual(review('a').runs[0]!.bales, { coded: 11, counts: expected });
    assert.equal(review('a').runs[0]!.mode, 'together');
    assert.equal(review('b').runs[0]!.mode, 'separate-then-together');
    assert.deepEqual(e.overall.categoryMixByMode, {
      'separate-then-together': { runs: 1, messages: 11, mix: shares },
      together: { runs: 1, messages: 11, mix: shares },
    });
    assert.match(
      e.skipped.map((s) => `${s.path}: ${s.reason}`).join('\n'),
      /^d\/runs\/2026-11-21T22-40-05Z-3f9c: runs\/2026-11-21T22-40-05Z-3f9c\/analysis\.json:\d+:\d+: error: /m,
    );
    const md = evaluationMarkdown(e);
    assert.match(md, /## What happened in the discussions \(Bales IPA\)/);
    assert.match(md, /\| together \| 1 \| 11 \| \d+ [A-Z][a-z]+.* \d+% /);
    assert.match(md, /\| a \| 1 \| /);
  });
});
