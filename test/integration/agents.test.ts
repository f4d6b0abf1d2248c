/**
 * The editor's agents inside the real extension host (issue 42): the five language-model tools are registered and
 * `vscode.lm.invokeTool('teamfusion_analyze', …)` answers the very object `analyze --json` prints (analyzeFolder, the CLI's
 * function); a folder outside the workspace is one sentence. The chat view itself cannot run here (code-server has no chat
 * model signed in), so the @teamfusion participant is driven through its handler with VS Code's own types: a real
 * CancellationToken, a request and a response stream recording what the handler streams.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { analyzeFolder } from '../../src/core/questions/analyze';
import { chatHandler } from '../../src/extension/agents/participant';
import { activateTeamFusion, SAMPLE, workspaceFolder } from './setup';

const TOOLS = ['teamfusion_analyze', 'teamfusion_criteria', 'teamfusion_next_steps', 'teamfusion_run_summary', 'teamfusion_validate'];

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('agents: TeamFusion as language-model tools and the @teamfusion participant', function () {
  this.timeout(120_000);
  before(activateTeamFusion);

  it('registers the five tools; invokeTool teamfusion_analyze answers the object analyze --json prints', async () => {
    assert.equal(typeof vscode.lm?.invokeTool, 'function', 'this VS Code has vscode.lm.invokeTool');
    assert.deepEqual(
      vscode.lm.tools
        .map((t) => t.name)
        .filter((n) => n.startsWith('teamfusion_'))
        .sort(),
      TOOLS,
    );
    const review = path.join(workspaceFolder(), SAMPLE);
    const tokens = new vscode.CancellationTokenSource();
    const result = await vscode.lm.invokeTool(
      'teamfusion_analyze',
      { input: { review: SAMPLE }, toolInvocationToken: undefined },
      tokens.token,
    );
    const expected = (await analyzeFolder(review)).json;
    assert.ok(expected);
    assert.deepEqual(JSON.parse(textOf(result)), expected);
  });

  it('a folder outside the workspace: one sentence, no answer', async () => {
    const result = await vscode.lm.invokeTool('teamfusion_validate', {
      input: { review: path.dirname(workspaceFolder()) },
      toolInvocationToken: undefined,
    });
    assert.match(textOf(result), /^TeamFusion could not answer: ".+" is outside .+, the folder these questions are limited to\.$/);
  });

  it('the participant handler, /status and /next: the computed figures, references to the files and the panel button', async () => {
    const parts: { kind: string; value: unknown }[] = [];
    const stream = {
      markdown: (v: string | vscode.MarkdownString) => parts.push({ kind: 'markdown', value: typeof v === 'string' ? v : v.value }),
      reference: (v: vscode.Uri) => parts.push({ kind: 'reference', value: v }),
      button: (v: vscode.Command) => parts.push({ kind: 'button', value: v }),
      progress: (v: string) => parts.push({ kind: 'progress', value: v }),
    } as unknown as vscode.ChatResponseStream;
    const reviews = { find: async () => [], reviewOf: async () => undefined };
    const handler = chatHandler(reviews);
    const tokens = new vscode.CancellationTokenSource();
    const request = { prompt: SAMPLE, command: 'status' } as unknown as vscode.ChatRequest;
    const result = await handler(request, { history: [] } as unknown as vscode.ChatContext, stream, tokens.token);
    const md = parts
      .filter((p) => p.kind === 'markdown')
      .map((p) => String(p.value))
      .join('\n');
    const analysis = (await analyzeFolder(path.join(workspaceFolder(), SAMPLE))).json as { kendall: { w: number; band: string } };
    assert.ok(md.includes(`Kendall's W = ${analysis.kendall.w.toFixed(2)} (${analysis.kendall.band})`), md);
    assert.ok(md.includes('computed by TeamFusion'), md);
    const refs = parts.filter((p) => p.kind === 'reference').map((p) => (p.value as vscode.Uri).fsPath);
    assert.deepEqual(refs, [path.join(workspaceFolder(), SAMPLE, 'rankings')]);
    const buttons = parts.filter((p) => p.kind === 'button').map((p) => (p.value as vscode.Command).command);
    assert.ok(buttons.includes('teamfusion.openReview'), buttons.join(', '));
    assert.equal((result as { metadata?: { command?: string } }).metadata?.command, 'status');

    parts.length = 0;
    await handler(
      { prompt: SAMPLE, command: 'next' } as unknown as vscode.ChatRequest,
      { history: [] } as unknown as vscode.ChatContext,
      stream,
      tokens.token,
    );
    assert.match(
      parts
        .filter((p) => p.kind === 'markdown')
        .map((p) => String(p.value))
        .join('\n'),
      /No run yet: teamfusion run starts one\./,
    );
  });
});
