import * as assert from 'node:assert/strict';
import { buildCommitMessage } from '../../../src/extension/run/git/commitMessage';
import { sampleRecord } from './fixtures';

describe('extension-run: commit message', () => {
  it('names the run, the final pick with its label and the team W in the subject', () => {
    const [subject, blank] = buildCommitMessage(sampleRecord()).split('\n');
    assert.equal(subject, 'TeamFusion run 2026-11-21T22-40-05Z-3f9c: final pick Image 8 (r2), team W 0.41');
    assert.equal(blank, '');
  });

  it('lists the final ranking and the first line of the last editing directions', () => {
    const msg = buildCommitMessage(sampleRecord());
    assert.match(msg, /Final ranking \(iteration 3\):\n1\. Image 8 \(r2\)\n2\. Image 7 \(r1\)/);
    assert.match(msg, /Editing directions \(iteration 2\): Keep the cap of Image 2; softer shadow\.\n/);
    assert.ok(!msg.includes('Drop the tagline'), 'only the first line of the directions');
    assert.match(msg, /Usage: 12000 input tokens \(4000 cached\), 900 output tokens, 2 image\(s\), about \$0\.12\./);
  });

  it('describes an unfinished run by its leader and the reason it stopped', () => {
    const rec = sampleRecord({ status: 'cancelled', finalPick: undefined, error: 'Cancelled by the user.', kendallW: undefined });
    rec.iterations = rec.iterations.slice(0, 1);
    const msg = buildCommitMessage(rec);
    assert.equal(msg.split('\n')[0], 'TeamFusion run 2026-11-21T22-40-05Z-3f9c: leading Image 2 (2)');
    assert.match(msg, /Stopped: Cancelled by the user\./);
    assert.ok(!msg.includes('team W'));
  });

  it('falls back to the status when nothing was ranked yet', () => {
    const rec = sampleRecord({
      status: 'failed',
      finalPick: undefined,
      iterations: [],
      kendallW: undefined,
      error: 'The endpoint refused the key.',
    });
    assert.equal(buildCommitMessage(rec).split('\n')[0], 'TeamFusion run 2026-11-21T22-40-05Z-3f9c: failed');
  });
});
