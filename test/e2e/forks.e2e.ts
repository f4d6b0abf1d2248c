/**
 * A fork side by side and its blind vote in a real VS Code (code-server + Chromium), issue 33 items 2 and 3. A run started
 * from the panel against the mock server, whose remix agent reports a decision point that splits the team (warm palette:
 * Ana, Ben, Chen; cold palette: Dina), makes one remix per side. The Run tab's Forks section shows the question and both
 * sides side by side, with nobody's name beside a side until the member choosing has voted; the toggle flips through the
 * sides at full size and back; Ben votes from the panel (his own runs/<id>/votes/ben.yaml, valid), then sees who holds
 * which side and the tally; the others vote with `teamfusion vote` and the panel shows the team's decision, recorded in
 * run.json with `via: human`, the voters and the counts. A brief run's fork shows its passages side by side as text, and
 * its commenters vote. In Restricted Mode nothing is written. Screenshots forks-* in the dark, light and high-contrast themes.
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run (under the shared lock):
 *   npx mocha --no-config --timeout 900000 out/test/e2e/forks.e2e.js
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { parse as parseYaml } from 'yaml';
import { briefWithDecisionPoints, withDecisionPoints } from '../support/decisionPoints';
import { checkVotesText } from '../../src/core/evaluation/votes/voteFile';
import { RunRecordSchema } from '../../src/core/record/record';
import { SAMPLE, copySample, e2eSuite, mockEnv, runCli, until } from './support/suite';
import type { MockOpenAI } from '../support/openaiMock';
import {
  DARK,
  openReview,
  requireBuilt,
  screenshot,
  setColorTheme,
  shootBothThemes,
  showTab,
  untilStateKept,
  waitInFrame,
  webviewPosts,
} from './support/workbench';

const QUESTION = 'Warm or cold palette?';
const PALETTE = {
  question: QUESTION,
  positions: [
    { position: 'warm palette', heldBy: ['ana', 'ben', 'chen'] },
    { position: 'cold palette', heldBy: ['dina'] },
  ],
};
const NAMES = ['Ana Ruiz', 'Ben Okafor', 'Chen Wei', 'Dina Haddad'];
const TONE = {
  question: 'Playful or sober tone?',
  positions: [
    { position: 'a playful tone', heldBy: ['ana', 'ben'] },
    { position: 'a sober tone', heldBy: ['chen'] },
  ],
};
const PASSAGES = [
  'The launch speaks with a wink: short lines, a playful rhythm, one pun at most.',
  'The launch speaks soberly: precise words, calm rhythm, no jokes.',
];

/** A brief review (brief.md, three members' comments, no rankings) with one brief run made by the CLI that forked TONE. */
async function briefReview(ws: string, mock: MockOpenAI): Promise<string> {
  const dir = path.join(ws, 'lumen-brief');
  await fs.mkdir(path.join(dir, 'comments'), { recursive: true });
  await fs.copyFile(path.join(SAMPLE, 'brief.md'), path.join(dir, 'brief.md'));
  await fs.writeFile(path.join(dir, 'review.yaml'), 'title: The brief, forked\n');
  for (const [id, name, says] of [
    ['ana', 'Ana Ruiz', 'Keep it light, even playful.'],
    ['ben', 'Ben Okafor', 'A wink would help the young audience.'],
    ['chen', 'Chen Wei', 'Premium means sober; no jokes.'],
  ]) {
    await fs.writeFile(path.join(dir, 'comments', `${id}.md`), `---\ndesigner: ${name}\nrole: Designer\n---\n\n${says}\n`);
  }
  mock.setFallback(briefWithDecisionPoints([TONE], PASSAGES));
  const run = await runCli(['run', dir, '--task', 'brief', '--iterations', '1', '--turns', '1'], mockEnv(mock));
  assert.equal(run.code, 0, run.out);
  return dir;
}

/** The Forks section's text (the "I am" picker, whose options name the whole team, is at the top of the panel). */
function forksText(panel: Frame): Promise<string> {
  return panel.evaluate(() => {
    const box = document.getElementById('tf-forks')?.cloneNode(true) as HTMLElement | undefined;
    box?.querySelector('#tf-i-am')?.remove();
    return box?.textContent ?? '';
  });
}

/**
 * Every block of the panel's text (a paragraph, list item, caption, cell…) that names a side together with a member. The
 * question itself ("Warm or cold palette?") names no side: the Next strip says it with who has not voted yet.
 */
function sidesWithNames(panel: Frame): Promise<string[]> {
  return panel.evaluate(
    ([names, question]) => {
      const blocks = [...document.querySelectorAll('p, li, figcaption, td, th, h2, h3, h4, dt, dd')].filter((e) => !e.closest('#tf-i-am'));
      return blocks
        .map((e) => (e.textContent ?? '').split(question).join(''))
        .filter((t) => /(warm|cold) palette/i.test(t) && names.some((n) => t.includes(n)));
    },
    [NAMES, QUESTION] as const,
  );
}

/** The boxes of the sides shown now. */
function sideBoxes(panel: Frame): Promise<{ id: string; x: number; y: number; w: number; caption: string }[]> {
  return panel.locator('.tf-fork .tf-fork-side').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return {
        id: e.getAttribute('data-remix') ?? '',
        x: r.left,
        y: r.top,
        w: r.width,
        caption: e.querySelector(':scope > figcaption')?.textContent ?? '',
      };
    }),
  );
}

/** Chooses who is at the panel in its one "I am" picker ('' for nobody): the member who votes. */
function voteAs(panel: Frame, id: string): Promise<void> {
  return panel.evaluate((who) => {
    const picker = document.getElementById('tf-i-am') as HTMLElement & { value: string };
    picker.value = who;
    picker.dispatchEvent(new Event('change'));
  }, id);
}

describe('a fork side by side and its blind vote in a real VS Code (code-server)', function () {
  this.timeout(900_000);
  const s = e2eSuite('forks');
  let review = '';
  let brief = '';
  let runId = '';
  let panel: Frame;

  before(async () => {
    requireBuilt();
    const ws = await s.makeWorkspace();
    review = await copySample(ws, 'lumen-perfume', { title: 'Forks, side by side', turnsPerAgent: 1, iterations: 2 });
    brief = await briefReview(ws, await s.startMock());
    s.mock.setFallback(withDecisionPoints([PALETTE]));
    await s.startWorkbench({ hideSideBar: true });
  });

  it('a run from the panel forks the split question: both sides side by side with the question, nobody named beside a side', async () => {
    panel = await openReview(s.page, 'lumen-perfume', 'Forks, side by side');
    await showTab(panel, 'run');
    await panel.locator('#tf-run').click();
    await waitInFrame(
      panel,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed',
      'status completed',
      300_000,
    );
    assert.deepEqual(s.mock.specErrors(), [], 'every request valid against the OpenAPI spec');
    assert.equal(s.mock.requests.filter((r) => r.route === 'edit').length, 2, 'one image edit per side');
    runId = (await fs.readdir(path.join(review, 'runs')))[0]!;

    await waitInFrame(panel, () => document.querySelectorAll('.tf-fork .tf-fork-side').length === 2, 'the fork with its two sides');
    await panel.evaluate(() => document.getElementById('tf-forks')?.scrollIntoView());
    await waitInFrame(
      panel,
      () => [...document.querySelectorAll<HTMLImageElement>('.tf-fork-side img')].every((i) => i.complete && i.naturalWidth > 0),
      "both sides' images",
    );
    assert.equal(await panel.locator('.tf-fork h3').textContent(), `${QUESTION} (iteration 1)`);
    const sides = await sideBoxes(panel);
    assert.deepEqual(
      sides.map((b) => [b.id, b.caption]),
      [
        ['r1a', 'remix r1a: warm palette'],
        ['r1b', 'remix r1b: cold palette'],
      ],
    );
    assert.ok(
      Math.abs(sides[0]!.y - sides[1]!.y) < 2 && sides[1]!.x >= sides[0]!.x + sides[0]!.w,
      `side by side: ${JSON.stringify(sides)}`,
    );

    // Blind: before anyone chooses who they are, no name beside a side, no tally, and no vote can be cast.
    const text = await forksText(panel);
    for (const name of NAMES) assert.ok(!text.includes(name), `"${name}" is not shown in the Forks section before voting: ${text}`);
    assert.doesNotMatch(text, /Votes:|Held by|voted for by/);
    assert.deepEqual(await sidesWithNames(panel), [], 'nowhere in the panel is a side paired with its holders');
    assert.equal(await panel.locator('.tf-fork-side .tf-vote[disabled]').count(), 2, 'no vote before choosing who you are');
    // The Next strip, above the tabs: the open vote and who has not voted; the next step is saying who you are, not a new run.
    // It follows the run's end a moment after the fork shows (under load, it still read "Waiting for the run to finish").
    await waitInFrame(
      panel,
      () => /Vote: .* — waiting for /.test(document.getElementById('tf-next')?.textContent ?? ''),
      'the Next strip shows the open vote',
    );
    const next = (await panel.locator('#tf-next').textContent()) ?? '';
    assert.match(next, /Vote: Warm or cold palette\? — waiting for Ana Ruiz, Ben Okafor, Chen Wei, Dina Haddad/);
    assert.equal(await panel.locator('#tf-next-primary').getAttribute('data-action'), 'chooseMe');
    assert.equal(
      await panel.locator('#tf-run').evaluate((el) => el.hasAttribute('secondary')),
      true,
      'a new run is not the primary button while the vote is open',
    );
    await shootBothThemes(s.page, 'forks-00-next-open-vote', () =>
      panel.evaluate(() => document.getElementById('tf-next')?.scrollIntoView()),
    );
    await shootBothThemes(s.page, 'forks-01-side-by-side', () =>
      panel.evaluate(() => document.getElementById('tf-forks')?.scrollIntoView()),
    );
  });

  it('the toggle flips through the sides at full size, then back to side by side', async () => {
    const before = await sideBoxes(panel);
    const flip = panel.locator('.tf-fork-flip');
    for (const [id, caption] of [
      ['r1a', 'remix r1a: warm palette'],
      ['r1b', 'remix r1b: cold palette'],
    ] as const) {
      await flip.click();
      await waitInFrame(
        panel,
        () =>
          document.querySelectorAll('.tf-fork-side').length === 1 &&
          !!document.querySelector<HTMLImageElement>('.tf-fork-full')?.naturalWidth,
        `${id} alone at full size`,
      );
      const [one] = await sideBoxes(panel);
      assert.deepEqual([one!.id, one!.caption], [id, caption]);
      const img = await panel.evaluate(() => {
        document.querySelector('.tf-fork')?.scrollIntoView();
        const i = document.querySelector<HTMLImageElement>('.tf-fork-full')!;
        const r = i.getBoundingClientRect();
        const shown = Math.min(r.width / i.naturalWidth, r.height / i.naturalHeight) * i.naturalWidth; // object-fit: contain
        return { shown, top: r.top, bottom: r.bottom, viewport: window.innerHeight, alt: i.alt };
      });
      assert.ok(img.shown > before[0]!.w * 1.2, `larger than side by side: ${JSON.stringify(img)} vs ${before[0]!.w}`);
      assert.ok(img.top >= 0 && img.bottom <= img.viewport, `the whole image on screen with the toggle above it: ${JSON.stringify(img)}`);
      assert.equal(img.alt, caption, 'the image is named as its caption names it');
      if (id === 'r1a') await screenshot(s.page, 'forks-02-full-size-dark');
    }
    await flip.click();
    await waitInFrame(panel, () => document.querySelectorAll('.tf-fork-side').length === 2, 'side by side again');
  });

  it('Ben votes blind from the panel: his own votes file, valid; then he sees who holds which side and the tally', async () => {
    await voteAs(panel, 'ben');
    await waitInFrame(panel, () => document.querySelectorAll('.tf-fork-side .tf-vote:not([disabled])').length === 2, 'the vote buttons on');
    assert.doesNotMatch(await forksText(panel), /Held by|Votes:/, 'still blind: Ben has not voted');
    await panel.locator('.tf-fork-side[data-remix="r1b"] .tf-vote').click();
    const file = path.join(review, 'runs', runId, 'votes', 'ben.yaml');
    const text = await until(s.page, 'votes/ben.yaml', () => fs.readFile(file, 'utf8'));
    assert.deepEqual(parseYaml(text), { designer: 'ben', votes: [{ iteration: 1, decisionPoint: 1, choice: 'r1b' }] });
    const record = RunRecordSchema.parse(JSON.parse(await fs.readFile(path.join(review, 'runs', runId, 'run.json'), 'utf8')));
    assert.deepEqual(checkVotesText(text, `runs/${runId}/votes/ben.yaml`, record).diagnostics, [], 'the file passes the votes check');
    assert.deepEqual(await fs.readdir(path.dirname(file)), ['ben.yaml'], 'only his own file');

    await waitInFrame(
      panel,
      () => /Votes: warm palette 0 · cold palette 1/.test(document.getElementById('tf-forks')?.textContent ?? ''),
      'the tally',
    );
    await waitInFrame(
      panel,
      () =>
        /Vote: Warm or cold palette\? — waiting for Ana Ruiz, Chen Wei, Dina Haddad/.test(
          document.getElementById('tf-next')?.textContent ?? '',
        ),
      'the strip: the vote waits for the others, not for Ben',
    );
    const shown = await forksText(panel);
    assert.match(shown, /Held by Ana Ruiz, Ben Okafor, Chen Wei; voted for by nobody yet/);
    assert.match(shown, /Held by Dina Haddad; voted for by Ben Okafor/);
    assert.match(shown, /\(waiting for Ana Ruiz, Chen Wei, Dina Haddad\)/);
    assert.equal(await panel.locator('.tf-fork-side[data-remix="r1b"] .tf-vote').textContent(), 'Your vote');
    assert.match((await panel.locator('.tf-vote-status').textContent()) ?? '', /\S/, 'the panel says where the vote stands');

    // Dina has not voted: choosing her hides it all again.
    await voteAs(panel, 'dina');
    await waitInFrame(panel, () => !/Held by/.test(document.getElementById('tf-forks')?.textContent ?? ''), 'blind again for Dina');
    assert.doesNotMatch(await forksText(panel), /Votes:|Ben Okafor/);
    await voteAs(panel, 'ben');
    await waitInFrame(panel, () => /Held by/.test(document.getElementById('tf-forks')?.textContent ?? ''), "Ben's view again");
    const prepare = async (): Promise<void> => {
      await s.page.mouse.move(2, 2);
      await panel.evaluate(() => document.querySelector('.tf-fork')?.scrollIntoView());
    };
    await shootBothThemes(s.page, 'forks-03-voted', prepare);
  });

  it("once everyone has voted (the rest with teamfusion vote) the panel shows the team's decision, recorded via: human", async () => {
    for (const [who, choice] of [
      ['ana', 'a'],
      ['chen', 'B'],
      ['dina', 'r1b'],
    ] as const) {
      const out = await runCli(['vote', review, runId, '--as', who, '1', choice], mockEnv(s.mock));
      assert.equal(out.code, 0, out.out);
    }
    const record = RunRecordSchema.parse(JSON.parse(await fs.readFile(path.join(review, 'runs', runId, 'run.json'), 'utf8')));
    const at = record.iterations[0]!.decisions?.[0]?.at;
    assert.ok(at && !Number.isNaN(Date.parse(at)), 'the decision says when');
    assert.deepEqual(record.iterations[0]!.decisions, [
      {
        question: QUESTION,
        at,
        decision: 'cold palette',
        by: 'team',
        via: 'human',
        voters: ['ana', 'ben', 'chen', 'dina'],
        counts: { 'warm palette': 1, 'cold palette': 3 },
      },
    ]);
    await waitInFrame(
      panel,
      () => /Decided: cold palette \(by the team's vote, 3 to 1\)\./.test(document.getElementById('tf-forks')?.textContent ?? ''),
      'the decision in the panel',
      120_000,
    );
    const shown = await forksText(panel);
    assert.match(shown, /Votes: warm palette 1 · cold palette 3/);
    assert.doesNotMatch(shown, /waiting for/);
    assert.equal(await panel.locator('.tf-fork-side .tf-vote').count(), 0, 'a decided fork has no vote controls');
    assert.deepEqual(
      await panel
        .locator('.tf-fork-side')
        .evaluateAll((els) =>
          els.map((e) => [e.getAttribute('data-remix'), e.getAttribute('data-fate'), e.querySelector('.tf-fork-fate')?.textContent]),
        ),
      [
        ['r1a', 'set-aside', 'Set aside'],
        ['r1b', 'chosen', '✓ Chosen'],
      ],
    );
    // The strip and the Overview say the decision; the strip's next step is not a new run.
    const next = (await panel.locator('#tf-next').textContent()) ?? '';
    assert.match(next, /Decided by the team's vote, 3 to 1: Warm or cold palette\? → cold palette \(set aside: warm palette\)/);
    assert.doesNotMatch(next, /Vote: /);
    assert.equal(await panel.locator('#tf-next-primary[data-action="run"]').count(), 0, 'the next step is not a new run');
    await panel.evaluate(() => document.getElementById('tf-next')?.scrollIntoView());
    await screenshot(s.page, 'forks-04-next-decided-dark');
    assert.match(
      (await panel.locator('#tf-decisions').textContent()) ?? '',
      /Decided by the team: Warm or cold palette\? → cold palette, 3 to 1\. Set aside: warm palette\./,
    );
    await waitInFrame(
      panel,
      () =>
        /Decided by the team: Warm or cold palette\? → cold palette, 3 to 1\./.test(
          document.getElementById('tf-outcome')?.textContent ?? '',
        ),
      "the decision among the run's decisions, in the words later prompts carry",
    );

    const prepare = async (): Promise<void> => {
      await s.page.mouse.move(2, 2);
      await panel.evaluate(() => document.querySelector('.tf-fork')?.scrollIntoView());
    };
    await shootBothThemes(s.page, 'forks-04-decided', prepare);
    await setColorTheme(s.page, 'Dark High Contrast');
    await prepare();
    await screenshot(s.page, 'forks-04-decided-high-contrast');
    await setColorTheme(s.page, DARK);
  });

  it('the Run tab reads top down: decisions, the final pick and remixes, the discussion, then cost and settings collapsed', async () => {
    await showTab(panel, 'run');
    const layout = await panel.evaluate(() => {
      const tab = document.querySelector('.tf-run-tab')!;
      const top = (sel: string) => document.querySelector(sel)?.getBoundingClientRect().top ?? NaN;
      // Every section: how many of its buttons are primary (not secondary), shown or not.
      const primaries = [...tab.querySelectorAll('section')].map(
        (sec) =>
          [
            sec.id,
            [...sec.querySelectorAll(':scope vscode-button:not([secondary])')].filter((b) => b.closest('section') === sec).length,
          ] as const,
      );
      const cards = [...document.querySelectorAll('.tf-remix-grid > .tf-remix-card')].map((c) =>
        Math.round(c.getBoundingClientRect().width),
      );
      return {
        parts: [...tab.children].map((c) => (c as HTMLElement).dataset.part),
        tops: ['#tf-forks', '#tf-outcome', '#tf-remixes', '#tf-discussion-section', '#tf-cost'].map(top),
        costOpen: (document.getElementById('tf-cost') as HTMLDetailsElement | null)?.open,
        usageInCost: !!document.querySelector('#tf-cost .tf-usage'),
        primaries,
        cards,
      };
    });
    assert.deepEqual(layout.parts, ['toolbar', 'status', 'decisions', 'results', 'evaluation', 'discussion', 'refine', 'cost']);
    assert.ok(
      layout.tops.every((t, i) => i === 0 || t > layout.tops[i - 1]!),
      `top down: forks, agreements and decisions, remixes, discussion, cost: ${layout.tops.join(', ')}`,
    );
    assert.equal(layout.costOpen, false, 'tokens, cost and settings collapsed by default');
    assert.equal(layout.usageInCost, true);
    assert.deepEqual(
      layout.primaries.filter(([, n]) => n > 1),
      [],
      'at most one primary button per section',
    );
    assert.ok(
      layout.cards.length >= 2 && layout.cards.every((w) => Math.abs(w - layout.cards[0]!) <= 1),
      `remix cards of one size: ${layout.cards.join(', ')}`,
    );
  });

  it("a brief run's fork: each side its passage as plain text, side by side; the commenters vote, blind", async () => {
    const forks = await openReview(s.page, 'lumen-brief', 'The brief, forked');
    await showTab(forks, 'run');
    await waitInFrame(forks, () => document.querySelectorAll('.tf-fork .tf-fork-passage').length === 2, 'both passages');
    await forks.evaluate(() => document.getElementById('tf-forks')?.scrollIntoView());
    const passages = await forks
      .locator('.tf-fork-passage')
      .evaluateAll((els) => els.map((e) => ({ text: e.textContent ?? '', elements: e.children.length, y: e.getBoundingClientRect().top })));
    const runDir = path.join(brief, 'runs', (await fs.readdir(path.join(brief, 'runs')))[0]!);
    for (const [i, p] of passages.entries()) {
      assert.equal(
        p.text,
        await fs.readFile(path.join(runDir, 'iteration-1', `fork-${'ab'[i]}.md`), 'utf8'),
        'the passage as written, as text',
      );
      assert.ok(p.text.includes(PASSAGES[i]!));
      assert.equal(p.elements, 0, "plain text: no element made from the model's writing");
    }
    assert.ok(Math.abs(passages[0]!.y - passages[1]!.y) < 2, 'side by side');
    assert.equal(await forks.locator('.tf-fork-side img').count(), 0, 'no image box for a passage');
    assert.deepEqual(
      await forks.locator('#tf-i-am vscode-option').evaluateAll((els) => els.map((e) => e.getAttribute('value'))),
      ['', 'ana', 'ben', 'chen'],
      'the commenters vote',
    );
    assert.doesNotMatch(await forksText(forks), /Held by|Ana Ruiz|Ben Okafor|Chen Wei/);
    await voteAs(forks, 'chen');
    await forks.locator('.tf-fork-side[data-remix="f1b"] .tf-vote').click();
    await waitInFrame(
      forks,
      () => /Held by Chen Wei; voted for by Chen Wei/.test(document.getElementById('tf-forks')?.textContent ?? ''),
      'Chen sees the holders once voted',
    );
    assert.deepEqual(parseYaml(await fs.readFile(path.join(runDir, 'votes', 'chen.yaml'), 'utf8')), {
      designer: 'chen',
      votes: [{ iteration: 1, decisionPoint: 1, choice: 'f1b' }],
    });
    assert.match(await forksText(forks), /Held by Ana Ruiz, Ben Okafor; voted for by nobody yet/);
    const tops = await forks
      .locator('.tf-fork-side')
      .evaluateAll((els) =>
        els.map((e) =>
          [e.querySelector(':scope > figcaption'), e.querySelector('.tf-vote')].map((x) => Math.round(x!.getBoundingClientRect().top)),
        ),
      );
    assert.ok(
      Math.abs(tops[0]![0]! - tops[1]![0]!) < 2 && Math.abs(tops[0]![1]! - tops[1]![1]!) < 2,
      `captions and vote buttons line up: ${JSON.stringify(tops)}`,
    );
    await shootBothThemes(s.page, 'forks-05-brief-passages', async () => {
      await s.page.mouse.move(2, 2);
      await forks.evaluate(() => document.querySelector('.tf-fork')?.scrollIntoView());
    });
  });

  it('in an untrusted workspace (Restricted Mode) the vote buttons are off and a click writes nothing', async () => {
    await s.stopWorkbench();
    await s.startWorkbench({ hideSideBar: true, workspaceTrust: true });
    const forks = await openReview(s.page, 'lumen-brief', 'The brief, forked');
    await showTab(forks, 'run');
    await waitInFrame(forks, () => document.querySelectorAll('.tf-fork .tf-fork-side').length === 2, 'the fork');
    // What the panel posts from here on is seen (webviewPosts); that it is, shows on Ana kept with setState.
    await webviewPosts(forks);
    await voteAs(forks, 'ana');
    await waitInFrame(forks, () => !/Choose who you are/.test(document.getElementById('tf-forks')?.textContent ?? ''), 'Ana chosen');
    await untilStateKept(forks, 'Ana at the panel', (state) => (JSON.parse(state) as { me?: string }).me === 'ana');
    assert.equal(await forks.locator('.tf-fork-side .tf-vote[disabled]').count(), 2, 'both buttons off');
    assert.match((await forks.locator('.tf-fork-side .tf-vote').first().getAttribute('title')) ?? '', /not trusted/);
    await forks.locator('.tf-fork-side[data-remix="f1a"] .tf-vote').click({ force: true });
    // A click handler posts while the click is dispatched: no vote went to the extension host, so nothing can be written.
    const posted = (await webviewPosts(forks)).filter((p) => p.channel === 'onmessage' && p.data.includes('"vote"'));
    assert.deepEqual(posted, [], 'the click posted no vote');
    const votes = path.join(brief, 'runs', (await fs.readdir(path.join(brief, 'runs')))[0]!, 'votes');
    assert.deepEqual(await fs.readdir(votes), ['chen.yaml'], 'nothing written for Ana');
  });
});
