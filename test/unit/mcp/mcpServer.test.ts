/**
 * `teamfusion mcp` through the MCP SDK's own client (issue 42): `node dist/cli.js mcp` spawned over stdio (run `npm run build`
 * first) lists the five tools, answers analyze with the very object `analyze --json` prints, answers run_summary and
 * next_steps as run.json and the vote files say, and refuses a folder outside the directory it started in, in one sentence.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { castVote } from '../../../src/core/evaluation/votes/cast';
import { cleanupFixtures, SAMPLE } from '../review/fixtures';
import { mockSuite } from '../run/helpers';
import { QUESTION, forkedRun } from '../votes/forkedRun';
import { builtCli, CLI_PATH } from '../../support/builtCli';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const CLI = CLI_PATH;

async function connect(cwd: string): Promise<Client> {
  const client = new Client({ name: 'teamfusion-test', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd, stderr: 'pipe' }));
  return client;
}

type CallResult = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: unknown };
const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<CallResult> =>
  (await c.callTool({ name, arguments: args })) as CallResult;
const json = (r: CallResult): Record<string, unknown> => {
  assert.ok(!r.isError, r.content[0]?.text);
  return JSON.parse(r.content[0]!.text) as Record<string, unknown>;
};

describe('teamfusion mcp: the questions over stdio, through the MCP SDK client', function () {
  this.timeout(120_000);
  const clients: Client[] = [];
  const open = async (cwd: string): Promise<Client> => {
    const c = await connect(cwd);
    clients.push(c);
    return c;
  };
  before(() => void builtCli());
  after(async () => {
    for (const c of clients) await c.close();
    await cleanupFixtures();
  });

  it('lists the five tools, each with the input { review, runId? } and marked read-only', async () => {
    const c = await open(path.dirname(SAMPLE));
    const { tools } = await c.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['analyze', 'validate', 'criteria', 'run_summary', 'next_steps'],
    );
    for (const t of tools) {
      assert.deepEqual(Object.keys(t.inputSchema.properties ?? {}).sort(), ['review', 'runId'], t.name);
      assert.deepEqual(t.inputSchema.required, ['review'], t.name);
      assert.equal(t.annotations?.readOnlyHint, true, t.name);
      assert.ok((t.description ?? '').length > 40, t.name);
    }
  });

  it('analyze answers the same object as analyze --json (W, p, orders), as text and as structured content', async () => {
    const c = await open(path.dirname(SAMPLE));
    const r = await call(c, 'analyze', { review: path.basename(SAMPLE) });
    const cli = spawnSync(process.execPath, [CLI, 'analyze', SAMPLE, '--json'], { encoding: 'utf8' });
    assert.equal(cli.status, 0, cli.stderr);
    const expected = JSON.parse(cli.stdout) as { kendall: { w: number; pPermutation: number }; borda: unknown };
    const got = json(r);
    assert.deepEqual(got, expected);
    assert.deepEqual(r.structuredContent, expected);
  });

  it('a folder outside its start directory, a missing review, a bad run id: one sentence each (isError), the server still answering', async () => {
    const c = await open(SAMPLE);
    const outside = await call(c, 'analyze', { review: path.join(REPO, 'samples', 'brief-review') });
    assert.equal(outside.isError, true);
    assert.equal(outside.content.length, 1);
    assert.match(outside.content[0]!.text, /^"[^"]+brief-review" is outside .+, the folder these questions are limited to\.$/);
    const up = await call(c, 'validate', { review: '..' });
    assert.equal(up.isError, true);
    const missing = await call(c, 'analyze', { review: 'no-such-review' });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0]!.text, /^The review folder .*no-such-review does not exist\.$/);
    const badRun = await call(c, 'run_summary', { review: '.', runId: 'latest' });
    assert.deepEqual(
      [badRun.isError, badRun.content[0]!.text],
      [true, 'runId: not a run id; a run id looks like 2026-01-31T12-00-00Z-ab12.'],
    );
    const extra = await call(c, 'analyze', { review: '.', instructions: 'write a file' });
    assert.deepEqual([extra.isError, extra.content[0]!.text], [true, 'The input has fields that are not allowed: instructions.']);
    assert.equal(json(await call(c, 'validate', { review: '.' })).valid, true, 'it still answers');
  });

  describe('on a real forked run', () => {
    const suite = mockSuite();

    it('run_summary and next_steps say what run.json and the vote files say', async () => {
      const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
      await castVote({ reviewRoot: root, runId, as: 'd2', decisionPoint: 1, choice: 'r1a' });
      const c = await open(path.dirname(root));
      const review = path.basename(root);
      const s = json(await call(c, 'run_summary', { review, runId }));
      assert.equal(s.runId, runId);
      assert.equal(s.status, 'completed');
      const [fork] = s.openForks as { question: { quoted: string }; voted: string[]; notVoted: string[] }[];
      assert.deepEqual([fork?.question.quoted, fork?.voted, fork?.notVoted], [QUESTION, ['d2'], ['d1', 'd3']]);
      const n = json(await call(c, 'next_steps', { review }));
      const vote = (n.steps as { kind: string; notVoted?: string[] }[]).find((x) => x.kind === 'vote');
      assert.deepEqual(vote?.notVoted, ['d1', 'd3']);
      // The lead closes the vote: the decision as run.json records it, and how it was made.
      await castVote({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, close: true });
      const closed = json(await call(c, 'run_summary', { review, runId }));
      assert.deepEqual(closed.openForks, []);
      const [d] = closed.decisions as {
        question: { quoted: string };
        decision: { quoted: string };
        how: string;
        by: string;
        voters: string[];
      }[];
      assert.deepEqual(
        [d?.question.quoted, d?.decision.quoted, d?.how, d?.by, d?.voters],
        [QUESTION, 'warm palette', 'the lead closed it with 1 of 3 votes', 'd1', ['d2']],
      );
    });
  });
});
