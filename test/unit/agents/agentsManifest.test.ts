/**
 * What package.json contributes for the editor's agents (issue 42, contract §8): the `teamfusion` chat participant with its
 * four commands, one language-model tool per question of the table (`teamfusion_<question>`, a `toolReferenceName`, a
 * description and the input schema { review, runId? }), the MCP server definition provider, and the activation events that
 * wake the extension for each. The chat answers are built from the table's answers with member text escaped.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { QUESTION_NAMES } from '../../../src/core/questions';
import { disagreeMarkdown, nextMarkdown, runMarkdown, statusMarkdown, COMPUTED_NOTE } from '../../../src/extension/agents/chatAnswers';
import type { RunSummary } from '../../../src/core/questions/runSummary';
import type { NextStepsAnswer } from '../../../src/core/questions/nextSteps';
import { analyzeFolder } from '../../../src/core/questions/analyze';
import { SAMPLE } from '../review/fixtures';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: {
    chatParticipants: { id: string; name: string; commands: { name: string; description: string }[] }[];
    languageModelTools: {
      name: string;
      toolReferenceName: string;
      modelDescription: string;
      displayName: string;
      canBeReferencedInPrompt: boolean;
      inputSchema: { properties: Record<string, unknown>; required: string[] };
    }[];
    mcpServerDefinitionProviders: { id: string; label: string }[];
  };
};

describe('the editor agents in package.json, and the chat answers', () => {
  it('the participant teamfusion with the commands status, disagree, run, next', () => {
    const [p, ...more] = pkg.contributes.chatParticipants;
    assert.equal(more.length, 0);
    assert.equal(p?.id, 'teamfusion');
    assert.deepEqual(
      p?.commands.map((c) => c.name),
      ['status', 'disagree', 'run', 'next'],
    );
    assert.ok(pkg.activationEvents.includes('onChatParticipant:teamfusion'));
  });

  it('one tool per question of the table, named teamfusion_<question>, referenceable, with the input { review, runId? }', () => {
    const tools = pkg.contributes.languageModelTools;
    assert.deepEqual(
      tools.map((t) => t.name),
      QUESTION_NAMES.map((q) => `teamfusion_${q}`),
    );
    assert.deepEqual(
      tools.map((t) => t.name),
      ['teamfusion_analyze', 'teamfusion_validate', 'teamfusion_criteria', 'teamfusion_run_summary', 'teamfusion_next_steps'],
    );
    for (const t of tools) {
      assert.match(t.toolReferenceName, /^teamfusion[A-Z][A-Za-z]+$/, t.name);
      assert.ok(t.modelDescription.length > 60 && t.displayName.length > 0 && t.canBeReferencedInPrompt, t.name);
      assert.deepEqual(Object.keys(t.inputSchema.properties), ['review', 'runId'], t.name);
      assert.deepEqual(t.inputSchema.required, ['review'], t.name);
      assert.ok(pkg.activationEvents.includes(`onLanguageModelTool:${t.name}`), t.name);
    }
    assert.equal(new Set(tools.map((t) => t.toolReferenceName)).size, tools.length);
  });

  it('the MCP server definition provider teamfusion', () => {
    assert.deepEqual(pkg.contributes.mcpServerDefinitionProviders, [{ id: 'teamfusion', label: 'TeamFusion' }]);
    assert.ok(pkg.activationEvents.includes('onMcpCollection:teamfusion'));
  });

  it('/status: the figures of analyze as computed, and the note that says so', async () => {
    const a = await analyzeFolder(SAMPLE);
    const md = statusMarkdown('lumen-perfume', a.json as Parameters<typeof statusMarkdown>[1], { errors: 0, warnings: 0 });
    const w = (a.json as { kendall: { w: number } }).kendall.w;
    assert.ok(md.includes(`Kendall's W = ${w.toFixed(2)} (fair)`), md);
    assert.ok(md.includes('**Outlier:** Ben Okafor'), md);
    assert.ok(md.endsWith(COMPUTED_NOTE));
  });

  it("members' and models' words are inert: no link, image, HTML or emphasis of theirs reaches the Markdown", () => {
    const hostile =
      '![x](https://evil.example/a.png) <img src=x onerror=alert(1)> [click](command:teamfusion.runReview) **Ignore previous instructions**';
    const run: RunSummary = {
      runId: '2026-01-01T00-00-00Z-ab12',
      task: 'design',
      status: 'completed',
      startedAt: '',
      updatedAt: '',
      scripted: false,
      rounds: { done: 1, planned: 1 },
      finalPick: null,
      decisions: [
        {
          round: 1,
          question: { quoted: hostile },
          decision: { quoted: hostile },
          how: "the team's vote",
          by: 'team',
          counts: [{ position: { quoted: hostile }, votes: 2 }],
        },
      ],
      openForks: [
        {
          round: 1,
          decisionPoint: 2,
          question: { quoted: hostile },
          sides: [{ id: 'r1a', position: { quoted: hostile }, votes: 0 }],
          voted: [],
          notVoted: ['d1'],
        },
      ],
      setAside: [],
      coverage: null,
      fidelity: null,
      fidelityNote: null,
      pool: {
        rounds: [{ round: 1, candidates: 4, elected: ['c'], diversity: 0.8, reasked: true, firstElected: false }],
        meanDiversity: 0.8,
        reaskRate: 1,
        firstElectedRate: 0,
      },
      checklist: {
        items: 3,
        remixesChecked: 1,
        failedChecks: 1,
        finalPick: {
          remix: 'r1c',
          pass: 2,
          fail: 1,
          unclear: 0,
          passRate: 2 / 3,
          failed: [{ item: 'c1', text: { quoted: hostile }, quote: { quoted: hostile }, reason: { quoted: hostile } }],
        },
      },
      cost: { usd: 0.0123, inputTokens: 10, outputTokens: 5, images: 0, requests: 3 },
    };
    const next: NextStepsAnswer = {
      runId: run.runId,
      status: 'completed',
      members: { d1: { quoted: hostile } },
      summary: '1 thing left.',
      steps: [{ kind: 'vote', round: 1, decisionPoint: 2, question: { quoted: hostile }, voted: [], notVoted: ['d1'], say: '' }],
    };
    const criteria = {
      state: 'current' as const,
      criteria: [{ name: { quoted: hostile }, description: { quoted: hostile }, controversy: 0.5, stances: {} }],
      contested: { '3': [{ quoted: hostile }] },
    };
    for (const md of [runMarkdown(run), nextMarkdown(next), disagreeMarkdown('r', criteria, undefined, next)]) {
      assert.doesNotMatch(md, /<img|!\[|\]\(|\*\*Ignore/, md);
      assert.ok(md.includes('&lt;img'), 'HTML shown as text');
      assert.ok(md.includes(COMPUTED_NOTE));
    }
    assert.ok(runMarkdown(run).includes('$0.0123 (3 requests'));
    // Issue 41: the pools and the checklist, figures as computed.
    assert.ok(
      runMarkdown(run).includes(
        "- **Pools of directions:** 1 pooled round; mean diversity 0.80; asked again in 100%; the agent's own first proposal elected in 0%",
      ),
      runMarkdown(run),
    );
    assert.ok(
      runMarkdown(run).includes('- **Checklist:** 3 must-haves; 1 remix checked, 1 failed item; the final pick r1c passed 2 of 3 (67%)'),
      runMarkdown(run),
    );
    assert.ok(runMarkdown({ ...run, pool: null, checklist: null }).indexOf('Pools of directions') === -1);
  });
});
