/**
 * "Record Team Decision…" inside the real extension host (issue 19): on a usual-way copy of the sample review
 * (review.yaml `condition: usual`), teamfusion.recordDecision with `{ reviewRoot, pick, startedAt }` writes decision.yaml
 * at the review's root; a pick that is no option, a time that is no ISO time, or a review that is not a usual-way review
 * writes nothing.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { checkDecisionText } from '../../src/core/evaluation/evaluate/baseline';
import { activateTeamFusion, copySampleTo, workspaceFolder } from './setup';

describe('baseline: Record Team Decision in the extension host', function () {
  this.timeout(300_000);
  let review = '';

  before(async () => {
    await activateTeamFusion();
    review = copySampleTo(join(workspaceFolder(), `usual-it-${Date.now().toString(36)}`));
    writeFileSync(join(review, 'review.yaml'), 'title: Lumen, the usual way\ncondition: usual\n');
  });
  after(() => {
    if (review) rmSync(review, { recursive: true, force: true });
  });

  it('writes decision.yaml with the pick, the start and now; bad input writes nothing', async () => {
    const file = join(review, 'decision.yaml');
    const options = (await vscode.workspace.fs.readDirectory(vscode.Uri.file(join(review, 'options')))).map(([n]) =>
      n.replace(/\.[^.]+$/, ''),
    );
    const bad = await vscode.commands.executeCommand<string | undefined>('teamfusion.recordDecision', {
      reviewRoot: review,
      pick: 'no-such-option',
      startedAt: '2026-11-24T09:00:00Z',
    });
    assert.equal(bad, undefined);
    assert.equal(existsSync(file), false, 'nothing written for a pick that is no option');
    const badTime = await vscode.commands.executeCommand<string | undefined>('teamfusion.recordDecision', {
      reviewRoot: review,
      pick: options[0],
      startedAt: 'this morning',
    });
    assert.equal(badTime, undefined);
    assert.equal(existsSync(file), false, 'nothing written for a time that is no ISO time');
    const written = await vscode.commands.executeCommand<string | undefined>('teamfusion.recordDecision', {
      reviewRoot: review,
      pick: options[1],
      startedAt: '2026-11-24T09:00:00Z',
    });
    assert.equal(written, file);
    const check = checkDecisionText(readFileSync(file, 'utf8'), options);
    assert.equal(check.decision?.pick, options[1]);
    assert.equal(check.decision?.startedAt, '2026-11-24T09:00:00Z');
    writeFileSync(join(review, 'review.yaml'), 'title: Lumen\n');
    const notUsual = await vscode.commands.executeCommand<string | undefined>('teamfusion.recordDecision', {
      reviewRoot: review,
      pick: options[0],
      startedAt: '2026-11-24T09:00:00Z',
    });
    assert.equal(notUsual, undefined, 'a TeamFusion review is not decided by this command');
    assert.equal(checkDecisionText(readFileSync(file, 'utf8'), options).decision?.pick, options[1], 'unchanged');
  });
});
