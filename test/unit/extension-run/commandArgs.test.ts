import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { RunReviewArgsSchema, hasReviewRoot, runRefFromArg } from '../../../src/extension/run/commandArgs';

const review = path.resolve('/tmp/reviews/lumen');
const runId = '2026-11-21T22-40-05Z-3f9c';
const runDir = path.join(review, 'runs', runId);

describe('extension-run: command arguments', () => {
  it('validates runReview arguments', () => {
    assert.ok(RunReviewArgsSchema.safeParse({ reviewRoot: review, iterations: 2, turns: 1 }).success);
    assert.ok(!RunReviewArgsSchema.safeParse({ reviewRoot: review, iterations: 0 }).success);
    assert.ok(!RunReviewArgsSchema.safeParse({ reviewRoot: review, turns: 1.5 }).success);
    assert.ok(hasReviewRoot({ reviewRoot: review }));
    assert.ok(!hasReviewRoot({ fsPath: review }));
  });

  it('takes a run reference from { reviewRoot, runId }', () => {
    assert.deepEqual(runRefFromArg({ reviewRoot: review, runId }), { reviewRoot: review, runId });
  });

  it('takes a run reference from a run folder or run.json Uri-like and from tree items', () => {
    assert.deepEqual(runRefFromArg({ fsPath: runDir }), { reviewRoot: review, runId });
    assert.deepEqual(runRefFromArg({ resourceUri: { fsPath: path.join(runDir, 'run.json') } }), { reviewRoot: review, runId });
    assert.deepEqual(runRefFromArg({ runDir, runId }), { reviewRoot: review, runId });
  });

  it('refuses things that are not a run', () => {
    assert.equal(runRefFromArg({ fsPath: review }), undefined);
    assert.equal(runRefFromArg(undefined), undefined);
    assert.equal(runRefFromArg({ runDir, runId: 'other' }), undefined);
  });
});
