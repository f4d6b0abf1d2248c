import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadReview } from '../../../src/core/review';
import type { RunRecord } from '../../../src/core/record/record';
import { PanelStateSchema, parseWebviewMessage } from '../../../src/protocol/panel';
import { coverageByMember, summaryText } from '../../../src/protocol/briefText';
import { briefRunState, isBriefRun, panelComments, roundPath } from '../../../src/extension/panel/state/briefState';
import { buildPanelState } from '../../../src/extension/panel/panelState';
import { cleanupFixtures, SAMPLE, tempDir } from '../review/fixtures';

const toUri = (p: string) => `https://webview.test${p.split(path.sep).join('/')}`;

const COVERAGE = [
  { designer: 'ana', point: 'Premium feel', status: 'kept' as const, quote: 'a calm, premium tone' },
  { designer: 'bo', point: 'Name the price', status: 'left-out' as const },
  { designer: 'bo', point: 'Younger audience', status: 'changed' as const, quote: '25–35' },
  { designer: 'ana', point: 'No celebrities', status: 'left-out' as const },
  { designer: 'ana', point: 'Gold', status: 'kept' as const, quote: 'gold cap' },
];

function briefRecord(id: string, rounds: number): RunRecord {
  const at = '2026-11-24T12:00:00Z';
  const rec = {
    version: 1,
    id,
    task: 'brief',
    status: 'completed',
    startedAt: at,
    updatedAt: at,
    settings: { chatModel: 'gpt-4o', imageModel: 'gpt-image-1', turnsPerAgent: 1, iterations: rounds },
    options: [],
    iterations: Array.from({ length: rounds }, (_, i) => ({
      index: i + 1,
      candidates: [],
      messages: [{ speaker: 'ana', turn: 1, content: 'hi' }],
      brief: {
        file: `iteration-${i + 1}/brief.md`,
        agreements: ['Launch in spring'],
        disagreements: [
          {
            question: 'Tone',
            positions: [
              { position: 'calm', heldBy: ['ana'] },
              { position: 'bold', heldBy: ['bo'] },
            ],
          },
        ],
        tradeOffs: ['Price vs. premium'],
        openQuestions: ['Which markets?'],
        coverage: COVERAGE,
      },
    })),
    usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 5, images: 0 },
    prompts: [],
  };
  return rec as unknown as RunRecord;
}

describe('brief review: panel protocol and state', () => {
  after(cleanupFixtures);

  it('the webview may ask for the diff, the adoption, a comment and a brief run; nothing else passes', () => {
    assert.ok(parseWebviewMessage({ type: 'showBriefChanges', runId: 'r', iteration: 2 }).ok);
    assert.ok(parseWebviewMessage({ type: 'adoptBrief', runId: 'r' }).ok);
    assert.ok(parseWebviewMessage({ type: 'commentOnBrief' }).ok);
    assert.ok(parseWebviewMessage({ type: 'run', task: 'brief' }).ok);
    assert.ok(parseWebviewMessage({ type: 'run' }).ok);
    assert.equal(parseWebviewMessage({ type: 'run', task: 'rm -rf' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'adoptBrief', runId: 'r', iteration: 0 }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'showBriefChanges', runId: 'x'.repeat(201) }).ok, false);
  });

  it('round files are relative to the run folder (or already to the review)', () => {
    assert.equal(roundPath('R1', 2, 'iteration-2/brief.md'), 'runs/R1/iteration-2/brief.md');
    assert.equal(roundPath('R1', 2, 'runs/R1/iteration-2/brief.md'), 'runs/R1/iteration-2/brief.md');
    assert.equal(roundPath('R1', 3, undefined), 'runs/R1/iteration-3/brief.md');
    assert.equal(roundPath('R1', 1, '../../../etc/passwd'), '../etc/passwd', 'normalised; the file room then refuses it');
  });

  it("reads each round's revised brief through the file room; a missing one is an error in words", async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'brief.md'), '# Old\n');
    await fs.mkdir(path.join(root, 'runs', 'R1', 'iteration-1'), { recursive: true });
    await fs.writeFile(path.join(root, 'runs', 'R1', 'iteration-1', 'brief.md'), '# New\n<script>x</script>\n');
    await fs.writeFile(path.join(root, 'runs', 'R1', 'baseline.md'), '# Direct\n');
    const state = await briefRunState(root, briefRecord('R1', 2));
    assert.ok(state);
    assert.equal(state.baseline, 'runs/R1/baseline.md');
    assert.deepEqual(
      state.rounds.map((r) => [r.iteration, r.path, r.text !== undefined]),
      [
        [1, 'runs/R1/iteration-1/brief.md', true],
        [2, 'runs/R1/iteration-2/brief.md', false],
      ],
    );
    assert.equal(
      state.rounds[0]?.text,
      '# New\n<script>x</script>\n',
      'the text as written: the webview renders it through its Markdown renderer, markup as text',
    );
    assert.match(state.rounds[1]?.error ?? '', /runs\/R1\/iteration-2\/brief\.md is missing/);
  });

  it('a round file that leads outside the review is not read', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'secret.md'), 'SECRET');
    await fs.mkdir(path.join(root, 'runs', 'R1', 'iteration-1'), { recursive: true });
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'runs', 'R1', 'iteration-1', 'brief.md'));
    const state = await briefRunState(root, briefRecord('R1', 1));
    assert.equal(state?.rounds[0]?.text, undefined);
    assert.match(state?.rounds[0]?.error ?? '', /outside the review/);
  });

  it('a design run (no task) has no brief state; a malformed brief entry is skipped with a log line', async () => {
    const root = await tempDir();
    const design = { ...briefRecord('D', 1), task: undefined } as unknown as RunRecord;
    assert.equal(isBriefRun(design as never), false);
    assert.equal(await briefRunState(root, design as never), undefined);
    const bad = briefRecord('B', 1) as unknown as { iterations: { brief: unknown }[] };
    bad.iterations[0]!.brief = { file: 3 };
    // (records are parsed when read; this one is built by hand to reach the check)
    const lines: string[] = [];
    const state = await briefRunState(root, bad as never, (l) => lines.push(l));
    assert.deepEqual(state?.rounds, []);
    assert.match(lines[0] ?? '', /unexpected shape/);
  });

  it('the panel state carries comments and the chosen brief run, and parses against the protocol', async () => {
    const load = await loadReview(SAMPLE, { decodeImages: false });
    assert.ok(load.review);
    const withComments = {
      ...load.review,
      comments: [{ designer: 'ana', name: 'Ana', role: 'AD', weight: 1, body: '<b>not markup</b>', file: 'comments/ana.md' }],
    };
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'runs', 'R1', 'iteration-1'), { recursive: true });
    await fs.writeFile(path.join(root, 'runs', 'R1', 'iteration-1', 'brief.md'), '# New\n');
    const rec = briefRecord('R1', 1);
    const brief = await briefRunState(root, rec as never);
    const state = buildPanelState({
      root: SAMPLE,
      load: { ...load, review: withComments },
      analysis: { error: 'n/a' },
      runs: [rec],
      trusted: true,
      running: false,
      toWebviewUri: toUri,
      ...(brief ? { brief } : {}),
    });
    const parsed = PanelStateSchema.parse(JSON.parse(JSON.stringify(state)));
    assert.equal(parsed.review?.comments?.[0]?.body, '<b>not markup</b>');
    assert.equal(parsed.brief?.rounds[0]?.coverage.length, 5);
    // A brief state of another run is dropped.
    const other = buildPanelState({
      root: SAMPLE,
      load,
      analysis: { error: 'n/a' },
      runs: [rec],
      trusted: true,
      running: false,
      toWebviewUri: toUri,
      brief: { runId: 'X', rounds: [] },
    });
    assert.equal(other.brief, undefined);
    assert.equal(panelComments({ comments: [] }), undefined);
  });

  it('coverage per member counts kept, changed, left out', () => {
    const by = coverageByMember(COVERAGE);
    assert.deepEqual({ ...by.get('ana'), entries: undefined }, { kept: 2, changed: 0, leftOut: 1, entries: undefined });
    assert.deepEqual({ ...by.get('bo'), entries: undefined }, { kept: 0, changed: 1, leftOut: 1, entries: undefined });
  });

  it('summary items read as one line: sentences, the members in brackets, sides after a dash', () => {
    assert.equal(summaryText('Launch in spring'), 'Launch in spring');
    assert.equal(
      summaryText({
        question: 'Tone',
        positions: [
          { position: 'calm', heldBy: ['ana'] },
          { position: 'bold', heldBy: ['bo', 'cy'] },
        ],
      }),
      'Tone — calm (ana); bold (bo, cy)',
    );
    assert.equal(summaryText({ question: 'Which markets?', raisedBy: 'ana' }), 'Which markets?: ana');
    const names: Record<string, string> = { ana: 'Ana Ruiz', bo: 'Bo' };
    assert.equal(
      summaryText({ question: 'Tone', positions: [{ position: 'calm', heldBy: ['ana', 'x'] }] }, (id) => names[id] ?? id),
      'Tone — calm (Ana Ruiz, x)',
    );
  });
});
