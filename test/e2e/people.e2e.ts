/**
 * People in the discussion, in a real VS Code (code-server + Chromium) against the local mock model server: a designer
 * types a message into a running discussion from the panel's Run tab, pins a message, and answers their own turn after
 * taking over their proxy (review.yaml `humans:`). Screenshots in dark and light themes.
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run:
 *   npx mocha --no-config --timeout 600000 out/test/e2e/people.e2e.js
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { RunRecordSchema, type RunRecord } from '../../src/core/record/record';
import { copySample, e2eSuite, patchReviewYaml, runIds, streamProxyTurns } from './support/suite';
import { markTyping, openReview, showTab, typedInto, waitInFrame, shootBothThemes, requireBuilt } from './support/workbench';

describe('people in the discussion, in a real VS Code (code-server)', function () {
  this.timeout(600_000);
  const s = e2eSuite('people', { checkWebviewErrors: false });
  let review = '';
  let panel: Frame;

  /** Dark screenshot, then the same in the light theme, then back to dark. */
  const shoot = (name: string): Promise<void> => shootBothThemes(s.page, name);

  async function record(): Promise<RunRecord> {
    const runs = (await runIds(review)).filter((n) => /^\d{4}-/.test(n));
    assert.equal(runs.length, 1);
    return RunRecordSchema.parse(JSON.parse(await fs.readFile(path.join(review, 'runs', runs[0]!, 'run.json'), 'utf8')));
  }

  before(async function () {
    requireBuilt(['dist/extension.js', 'dist/webview/panel.js']);
    const ws = await s.makeWorkspace();
    // A second review, so "Open Review" asks which one (as in a real workspace with several).
    await copySample(ws, 'other-review');
    // One round, one turn each, in review order: Ana, Ben, Chen (who speaks in person), Dina; a guest to call in.
    review = await copySample(ws, 'lumen-perfume', {
      turnsPerAgent: 1,
      iterations: 1,
      mode: 'together',
      order: 'fixed',
      leadSpeaksLast: false,
      humans: ['chen'],
      guests: [{ id: 'client', name: 'Lumen brand manager', role: 'Client', perspective: 'Shelf impact and the premium price.' }],
    });
    // Proxy turns stream slowly, so a person can speak while the discussion runs.
    streamProxyTurns(await s.startMock(), 120);
    await s.startWorkbench({ hideSideBar: true });
  });

  it('a designer speaks into the running discussion, pins a message, and answers their own turn from the panel', async () => {
    const page = s.page;
    panel = await openReview(page, 'lumen-perfume', 'Lumen');
    await showTab(panel, 'run');
    await panel.locator('#tf-run').click();

    // While Ana's proxy is still writing, Ana (chosen in "Speak as") says something and asks Dina to answer.
    await waitInFrame(panel, () => !!document.querySelector('.tf-msg.tf-streaming'), 'a turn being written', 60_000);
    await waitInFrame(panel, () => !!document.getElementById('tf-say-text'), 'the input under the discussion', 30_000);
    const said = 'Keep the gold bottle from Image 2 <b>not bold</b>. @dina what do you think?';
    await panel.locator('#tf-say-text textarea').fill(said);
    await panel.locator('#tf-say-send').click();
    // The host answers first (the entry is in the run's inbox); the driver takes it in at its next turn boundary.
    const answer = await waitInFrame(
      panel,
      () => document.getElementById('tf-say-result')?.textContent ?? '',
      "the host's answer to Send",
      60_000,
    );
    assert.match(answer, /^Said: the run takes it in at its next turn/);
    await waitInFrame(
      panel,
      () =>
        [...document.querySelectorAll('.tf-msg[data-kind="human"] .tf-msg-body')].some((b) =>
          (b.textContent ?? '').includes('<b>not bold</b>'),
        ),
      "Ana's own message in the discussion, as text",
      120_000,
    );
    assert.equal(await panel.locator('.tf-msg[data-kind="human"] .tf-msg-body b').count(), 0, "people's text is never markup");
    await shoot('people-01-speaking');

    // Chen took over his proxy: the run waits for him, the input is his.
    await waitInFrame(panel, () => !!document.getElementById('tf-waiting'), 'the waiting banner', 120_000);
    assert.match((await panel.locator('#tf-waiting').textContent()) ?? '', /Waiting for Chen/i);
    assert.equal(await panel.locator('#tf-say-as').evaluate((el) => (el as HTMLElement & { value: string }).value), 'chen');
    const waiting = await record();
    assert.equal(waiting.status, 'waiting');
    assert.deepEqual(waiting.waitingFor, { speaker: 'chen', iteration: 1, turn: 1 });

    // Pin Ana's message (as Chen, the speaker chosen now).
    const anaMessage = await panel.locator('.tf-msg[data-kind="human"]').first().getAttribute('data-message-id');
    await panel.locator(`.tf-msg[data-message-id="${anaMessage}"] .tf-pin`).click();
    await waitInFrame(panel, () => !!document.querySelector('.tf-msg.tf-pinned'), 'the pinned message', 30_000);
    await shoot('people-02-waiting');

    // A state that comes in while Chen types (a teammate's change pulled, here the review's title changed on disk)
    // redraws the panel around the input, never the input itself: the same element keeps his text and the focus.
    await panel.locator('#tf-say-text textarea').fill('I will take this turn myself');
    const typing = await markTyping(panel, 'tf-say-text');
    assert.equal(typing, true, 'the input has the focus while Chen types');
    await patchReviewYaml(review, { title: 'Lumen, renamed while Chen types' });
    await waitInFrame(
      panel,
      () => (document.getElementById('tf-title')?.textContent ?? '').includes('renamed while Chen types'),
      'the new title in the panel',
      60_000,
    );
    const after = await typedInto(panel, 'tf-say-text');
    assert.deepEqual(after, { same: true, focused: true, text: 'I will take this turn myself' });

    const requestsBefore = s.mock.requests.length;
    await panel.locator('#tf-say-text textarea').fill('I will take this turn myself: Image 3 has the calm we need.');
    await panel.locator('#tf-say-send').click();
    await waitInFrame(panel, () => !document.getElementById('tf-waiting'), 'the waiting banner gone', 60_000);
    await waitInFrame(
      panel,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed',
      'status completed',
      180_000,
    );
    await shoot('people-03-answered');

    const done = await record();
    const messages = done.iterations[0]!.messages;
    const chen = messages.find((m) => m.speaker === 'chen' && m.kind === 'human');
    assert.deepEqual([chen?.turn, chen?.content], [1, 'I will take this turn myself: Image 3 has the calm we need.']);
    const ana = messages.find((m) => m.speaker === 'ana' && m.kind === 'human');
    assert.deepEqual([ana?.turn, ana?.mentions], [null, ['dina']]);
    assert.ok(
      messages.some((m) => m.speaker === 'dina' && m.replyTo === ana?.id),
      'Dina was asked to speak by the @mention',
    );
    assert.ok(!messages.some((m) => m.speaker === 'chen' && m.kind === 'proxy'), "Chen's proxy never spoke");
    assert.deepEqual(
      done.pins?.map((p) => [p.message, p.by]),
      [[anaMessage, 'chen']],
    );
    const chenName = 'Chen Wei';
    const later = s.mock.requests.slice(requestsBefore).filter((r) => r.route === 'chat');
    assert.ok(later.length >= 1);
    for (const r of later) {
      const text = JSON.stringify(r.body);
      assert.ok(
        !text.includes(JSON.stringify(`role-playing ${JSON.stringify(chenName)}`).slice(1, -1)),
        "no model request for Chen's turn",
      );
      assert.ok(text.includes(JSON.stringify('Pinned by "Chen Wei"').slice(1, -1)), 'the pin is in every later prompt');
    }
    assert.deepEqual(s.mock.specErrors(), []);
  });
});
