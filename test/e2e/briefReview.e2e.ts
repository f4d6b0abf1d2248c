/**
 * A brief review in a real VS Code (code-server + Chromium), issue 17: a 4-member review (brief.md + comments/, no options
 * or rankings) shows in the Reviews tree with its comments; "Comment on the Brief" quotes the selected lines of brief.md
 * into the member's comment file beside the brief; a brief run started from the tree runs against the scripted mock
 * server (one member's points left out); the panel shows the revised brief, the summary and the coverage table (the
 * member with points left out stands out); "Show changes" opens VS Code's diff editor. Screenshots in dark and light.
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run (under the shared lock):
 *   npx mocha --no-config --timeout 600000 out/test/e2e/briefReview.e2e.js
 * Screenshots land in .test-output/screenshots/brief-*.png.
 */
import * as assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { briefFallback } from '../support/openaiMock';
import { parse as parseYaml } from 'yaml';
import { e2eSuite, until, untilRun } from './support/suite';
import { command, openReview, requireBuilt, screenshot, shootBothThemes, showTab, waitInFrame } from './support/workbench';

const BRIEF = `# Lumen launch brief

## Goal
Launch Lumen, a new perfume, with one key visual.

## Audience
Women 25–40 in cities.

## Must have
- The bottle, the logo, "Available in March".
`;

const MEMBERS: [id: string, name: string, role: string, body: string][] = [
  ['ana', 'Ana Ruiz', 'Art Director', 'The brief asks for premium calm. The bottle must be the hero; the audience line is too narrow.'],
  ['ben', 'Ben Okafor', 'Copywriter', 'The message is unclear: is it the launch date or the scent? I would lead with the scent.'],
  ['chloe', 'Chloé Martin', 'Strategist', 'Goal should be awareness, not sales. Ask the client about the budget for outdoor.'],
  ['dev', 'Dev Patel', 'Designer', 'Gift buyers matter at launch; the brief forgets them. Tone: warm, not cold luxury.'],
];

async function makeBriefReview(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, 'comments'), { recursive: true });
  await fs.writeFile(path.join(dir, 'brief.md'), BRIEF);
  await fs.writeFile(path.join(dir, 'review.yaml'), 'title: Lumen brief\nturnsPerAgent: 1\niterations: 2\n');
  for (const [id, name, role, body] of MEMBERS) {
    await fs.writeFile(path.join(dir, 'comments', `${id}.md`), `---\ndesigner: ${JSON.stringify(name)}\nrole: ${role}\n---\n\n${body}\n`);
  }
}

describe('brief review in a real VS Code (code-server)', function () {
  this.timeout(600_000);
  const s = e2eSuite('brief');
  let review = '';
  let panel: Frame;

  before(async function () {
    requireBuilt(['dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js']);
    review = path.join(await s.makeWorkspace(), 'lumen-brief');
    await makeBriefReview(review);
    // The brief remix agent's answers are scripted: Dev's points are left out of the revised brief.
    (await s.startMock()).setFallback(briefFallback({ leftOut: ['dev'] }));
    await s.startWorkbench({ settings: { 'teamfusion.turnsPerAgent': 1, 'teamfusion.iterations': 2, 'git.enabled': false } });
  });

  it("the Reviews tree shows the brief review with its four members' comments", async () => {
    const page = s.page;
    await command(page, 'TeamFusion: Focus on Reviews View');
    const group = page.locator('.monaco-list-row', { hasText: 'Comments on the brief' }).first();
    await group.waitFor({ state: 'visible', timeout: 120_000 });
    assert.equal(await page.locator('.monaco-list-row', { hasText: /^Options/ }).count(), 0, 'no options group for a brief-only review');
    await group.click();
    for (const [, name] of MEMBERS)
      await page.locator('.monaco-list-row', { hasText: name }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'brief-01-tree-dark');
  });

  it("Comment on the Brief quotes the selected lines with their numbers in the member's file, beside the brief", async () => {
    const page = s.page;
    await command(page, 'Go to File...');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill('lumen-brief/brief.md');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'brief.md' })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'brief.md' }).waitFor({ state: 'visible', timeout: 30_000 });
    // Select lines 6–7 ("## Audience" and the line under it).
    await command(page, 'Go to Line/Column...');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(':6');
    await page.keyboard.press('Enter');
    const cursor = page.locator('.statusbar-item[id="status.editor.selection"]');
    await until(page, 'the cursor on line 6', async () => /Ln 6,/.test((await cursor.textContent()) ?? ''));
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    // The editor's own account of its selection, exactly: from line 6 column 1 to the end of line 7, every character of
    // both lines and the line break between them (a selection of line 7 alone also reads "Ln 7, … selected").
    const lines = BRIEF.split('\n');
    const selected = `Ln 7, Col ${lines[6]!.length + 1} (${lines[5]!.length + 1 + lines[6]!.length} selected)`;
    await until(page, `the status bar to read "${selected}"`, async () => ((await cursor.textContent()) ?? '').trim() === selected);
    await command(page, 'TeamFusion: Comment on the Brief');
    const picker = page.locator('.quick-input-widget:has(input[placeholder="Which member are you?"])');
    await picker.waitFor({ state: 'visible', timeout: 30_000 });
    // While the picker waits (it stays open when focus leaves it), a click on line 4's number in the brief selects that
    // line instead: the quote is still of the lines selected when the command was run.
    await page
      .locator('.monaco-editor .line-numbers')
      .filter({ hasText: /^\s*4\s*$/ })
      .first()
      .click();
    await until(page, 'line 4 selected instead', async () =>
      /^Ln 5, Col 1 \(\d+ selected\)$/.test(((await cursor.textContent()) ?? '').trim()),
    );
    await picker.waitFor({ state: 'visible', timeout: 30_000 });
    await picker.locator('input').fill('Chloé');
    await picker.locator('.quick-input-list .monaco-list-row', { hasText: 'Chloé Martin' }).first().click();
    const file = path.join(review, 'comments', 'chloe.md');
    const text = await until(page, 'the quote in comments/chloe.md', async () => {
      const t = await fs.readFile(file, 'utf8');
      return t.includes('> brief.md L') ? t : undefined;
    }).catch(async (e: unknown) => {
      await screenshot(page, 'brief-02-comment-failed');
      throw new Error(`${String(e)}; comments/chloe.md: ${await fs.readFile(file, 'utf8').catch(() => '(none)')}`);
    });
    assert.match(text, /^---\ndesigner: "Chloé Martin"\nrole: Strategist\n---\n/, "the member's front matter is kept");
    assert.ok(text.includes('> brief.md L6–L7:\n> ## Audience\n> Women 25–40 in cities.\n'), text);
    // Opened beside the brief: two editor groups, the comment file active in the second.
    await page.locator('.tab.active', { hasText: 'chloe.md' }).waitFor({ state: 'visible', timeout: 30_000 });
    await until(page, 'two editor groups', async () => (await page.locator('.editor-group-container').count()) >= 2);
    await screenshot(page, 'brief-02-comment-beside-dark');
    await command(page, 'View: Close All Editors');
  });

  it('runs the brief review from the tree; the panel shows the revised brief, the summary, the coverage table and the diff', async () => {
    const page = s.page;
    await command(page, 'TeamFusion: Focus on Reviews View');
    const group = page.locator('.monaco-list-row', { hasText: 'Comments on the brief' }).first();
    await group.waitFor({ state: 'visible', timeout: 60_000 });
    await group.hover();
    await group.locator('.action-label[aria-label="Run Brief Review"]').click();
    const runs = path.join(review, 'runs');
    const runId = await untilRun(page, review, 'completed', { task: 'brief' });
    assert.ok(existsSync(path.join(runs, runId, 'iteration-2', 'brief.md')), 'the revised brief of round 2');
    assert.ok(existsSync(path.join(runs, runId, 'baseline.md')), 'the direct baseline');
    assert.deepEqual(s.mock.specErrors(), [], 'every request valid against the OpenAPI spec');

    panel = await openReview(page, 'lumen-brief', 'Lumen brief');
    // Overview: the members' comments, as text.
    await waitInFrame(panel, () => document.querySelectorAll('#tf-comments-section .tf-comment').length === 4, 'the four comments');
    await showTab(panel, 'run');
    await waitInFrame(
      panel,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed',
      'the run shown as completed',
    );
    await waitInFrame(
      panel,
      () => document.querySelector('#tf-revised-brief h1')?.textContent?.includes('round 2') ?? false,
      'the revised brief of the last round',
      60_000,
    );
    const coverage = await panel.locator('#tf-coverage tr.tf-cov-member').evaluateAll((rows) =>
      rows.map((r) => ({
        designer: r.getAttribute('data-designer'),
        flagged: r.classList.contains('tf-cov-flagged'),
        text: r.textContent ?? '',
      })),
    );
    assert.deepEqual(coverage.map((c) => c.designer).sort(), ['ana', 'ben', 'chloe', 'dev']);
    const dev = coverage.find((c) => c.designer === 'dev');
    assert.equal(dev?.flagged, true, 'the member with points left out stands out');
    assert.match(dev?.text ?? '', /1 left out/, 'in words, not colour only');
    assert.ok(coverage.filter((c) => c.designer !== 'dev').every((c) => !c.flagged));
    assert.match((await panel.locator('#tf-coverage-leftout').textContent()) ?? '', /Dev Patel/);
    assert.match((await panel.locator('#tf-brief-disagreements').textContent()) ?? '', /Who is the audience\?/);
    assert.match((await panel.locator('#tf-brief-questions').textContent()) ?? '', /budget for outdoor/);

    const toResult = async () => {
      await panel.evaluate(() => document.getElementById('tf-brief-result')?.scrollIntoView());
    };
    await shootBothThemes(page, 'brief-03-revised-brief', toResult);
    const toCoverage = async () => {
      await panel.evaluate(() => document.getElementById('tf-coverage')?.scrollIntoView());
    };
    await shootBothThemes(page, 'brief-04-coverage', toCoverage);

    // Dev checks the agent's account of his own points in the panel: coverage/dev.yaml, as `compare` reads it.
    await panel.evaluate(() => {
      const picker = document.getElementById('tf-i-am') as HTMLElement & { value: string };
      picker.value = 'dev';
      picker.dispatchEvent(new Event('change'));
    });
    await waitInFrame(panel, () => !!document.getElementById('tf-coverage-confirm'), "Dev's check of his own points");
    await panel.evaluate(() => {
      const answer = document.getElementById('tf-cov-agree-0') as HTMLElement & { value: string };
      answer.value = 'yes';
      answer.dispatchEvent(new Event('change'));
    });
    await panel.locator('#tf-coverage-save').click();
    await waitInFrame(panel, () => /Saved runs\//.test(document.getElementById('tf-coverage-status')?.textContent ?? ''), 'the saved note');
    const checked = parseYaml(await fs.readFile(path.join(runs, runId, 'coverage', 'dev.yaml'), 'utf8')) as {
      designer: string;
      points: { point: string; agree: boolean }[];
    };
    assert.equal(checked.designer, 'dev');
    assert.equal(checked.points.length, 1);
    assert.equal(checked.points[0]?.agree, true);
    await shootBothThemes(page, 'brief-04b-coverage-check', async () => {
      await panel.evaluate(() => document.getElementById('tf-coverage-confirm')?.scrollIntoView());
    });

    // Show changes: VS Code's own diff editor between brief.md and the revised brief of the round shown.
    await toResult();
    await panel.locator('#tf-brief-diff').click();
    const diff = page.locator('.monaco-diff-editor').first();
    await diff.waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.tab.active', { hasText: 'revised brief' }).waitFor({ state: 'visible', timeout: 30_000 });
    await until(page, 'the revised text in the diff', async () =>
      (await diff.textContent())?.replace(/\u00a0/g, ' ').includes('Revised brief (round 2)'),
    );
    await shootBothThemes(page, 'brief-05-diff');
    // Nothing was adopted: brief.md is as written.
    assert.equal(await fs.readFile(path.join(review, 'brief.md'), 'utf8'), BRIEF);
  });
});
