/**
 * `teamfusion mcp` (issue 42, contract §8): an MCP server on stdio (the official @modelcontextprotocol/sdk) serving the
 * read-only questions of core/questions — analyze, validate, criteria, run_summary, next_steps — each with the input
 * `{ review, runId? }`, limited to the review folders under the directory it was started in. An answer is its JSON (as text
 * and as structured content); a question it cannot answer is one sentence (`isError`). Nothing is sent, nothing written.
 * stdout carries only the protocol; it stops when its input closes.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ask, QUESTIONS, QuestionInputShown } from '../../core/questions';
import { parseStrict } from './validate';
import { UsageError } from '../usage';
import { safeJson } from '../output';

declare const __TEAMFUSION_VERSION__: string | undefined;
const VERSION = typeof __TEAMFUSION_VERSION__ === 'string' ? __TEAMFUSION_VERSION__ : 'dev';

/** The server for the folder `root`: every question of the table as a tool. */
export async function questionServer(root: string): Promise<McpServer> {
  const { McpServer } = await import('../mcpSdk.js');
  const server = new McpServer({ name: 'teamfusion', version: VERSION });
  for (const q of QUESTIONS) {
    server.registerTool(
      q.name,
      {
        title: q.title,
        description: q.description,
        inputSchema: QuestionInputShown,
        annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
      },
      async (input: unknown) => {
        const a = await ask(q.name, input, root);
        return a.ok
          ? { content: [{ type: 'text' as const, text: safeJson(a.value) }], structuredContent: a.value as Record<string, unknown> }
          : { content: [{ type: 'text' as const, text: a.error }], isError: true };
      },
    );
  }
  return server;
}

export async function runMcp(args: string[]): Promise<number> {
  const { positionals } = parseStrict(args);
  if (positionals.length)
    throw new UsageError('teamfusion mcp takes no folder: start it in the folder that holds the reviews; its questions stay under it.');
  const server = await questionServer(process.cwd());
  const { StdioServerTransport } = await import('../mcpSdk.js');
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
  return 0;
}
