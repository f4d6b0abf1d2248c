/**
 * The vote suites' one set-up (issue 33): a real, completed 2-round run of 3 designers (against the spec-checking mock, two
 * remixes a round) whose round-1 remixes are marked as the two sides of one decision point — r1a "warm palette" (held by
 * d1, d2), r1b "cool palette" (d3) — as the fork engine records them. Until that engine lands, the marks are written here.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { MockOpenAI } from '../../support/openaiMock';
import { startRun } from '../../../src/core/run/session';
import { readRunRecord, writeRunRecord } from '../../../src/core/record/store';
import { makeReview } from '../run/fixtures';
import { clientFor } from '../run/helpers';

export const QUESTION = 'Warm or cool palette?';

/** `yaml`: review.yaml (a lead and two remixes a round by default); `root`: an existing review folder to run in. */
export async function forkedRun(
  mock: MockOpenAI,
  cacheDir: string,
  o: { yaml?: string; root?: string } = {},
): Promise<{ root: string; runId: string }> {
  const root = o.root ?? (await makeReview({ options: 4, designers: 3 }));
  if (!o.root) await fs.writeFile(path.join(root, 'review.yaml'), o.yaml ?? 'lead: d1\nremixesPerIteration: 2\n');
  const r = await startRun({ reviewRoot: root, client: clientFor(mock), cacheDir, settings: { iterations: 2, turnsPerAgent: 1 } });
  assert.equal(r.status, 'completed', r.error);
  const record = await readRunRecord(root, r.id);
  const it1 = record.iterations[0]!;
  it1.decisionPoints = [
    {
      question: QUESTION,
      positions: [
        { position: 'warm palette', heldBy: ['d1', 'd2'] },
        { position: 'cool palette', heldBy: ['d3'] },
      ],
    },
  ];
  // The fork point is the team's to settle: no proxy decided it.
  delete it1.decisions;
  const [a, b] = it1.remixes!;
  a!.fork = { question: QUESTION, position: 'warm palette', decisionPoint: 1 };
  b!.fork = { question: QUESTION, position: 'cool palette', decisionPoint: 1 };
  await writeRunRecord(root, record, { validate: true });
  return { root, runId: r.id };
}
