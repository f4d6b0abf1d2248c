/**
 * Brief-run benchmark (issue 17, `npm run bench`): the paper's cost claim, measured. A brief run of 4 and of 12 members
 * (each comment about 1,500 characters, proxy messages of 400 bytes, 3 rounds, 2 turns each, the default mode) against the local mock; every
 * chat request the engine sent is counted, and set against the naive way on the SAME turns: every request re-sends the brief,
 * every member's comment, every earlier revised brief and the whole transcript so far in full, then the same instructions
 * as ours. Both are counted alike: text ≈ characters / 4, and a request's longest character prefix shared with an earlier
 * request is billed at the cached price (50 %, gpt-4o; only from 1,024 tokens, as OpenAI caches), so the naive way gets
 * the provider's prompt cache too — it is given its most cache-friendly order (what grows comes last).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI, briefFallback, type MockFallback, type RecordedRequest } from '../test/support/openaiMock';
import { requestedJsonSchema, requestTexts } from '../test/support/openaiMock/autoResponder';
import { makeBriefRunReview, makeTempDir } from '../test/unit/run/fixtures';
import { startRun } from '../src/core/run/session';
import { createModelClient } from '../src/core/llm/client';
import type { RunRecord } from '../src/core/record/record';

interface Row {
  name: string;
  value: number;
  goal?: number;
  unit: string;
}

const CACHED_PRICE_SHARE = 0.5;
const MIN_CACHED_TOKENS = 1024;

const READING =
  'What the brief asks for, as I read it: one key visual that makes people curious about the launch, not a sales push. ' +
  'What matters most to me is that the audience is named precisely, because the tone follows from it; "young urban" is ' +
  'too loose, and gift buyers in December are a different person with different triggers. What is unclear: the ' +
  'mandatories (logo lock-up, legal line, the price point or not), the channels (outdoor, social, print all at once?), ' +
  'and who signs off on the tone. What I would change: pick one message instead of three, state the budget for outdoor, ' +
  'and ask the client which competitor they fear most, so we know what "premium" has to beat on the shelf. ';

const MESSAGE_BYTES = 400;

/**
 * Every proxy message MESSAGE_BYTES long (ASCII) and told apart by its number, whatever the request looks like: the mock's own
 * reply turns on how many messages the request has, so a layout of the same messages would change the transcript it is
 * measured on.
 */
function fixedTurns(fallback: MockFallback): MockFallback {
  let n = 0;
  return (req) => {
    const answer = fallback(req);
    if (answer || (req.body as { stream?: boolean }).stream !== true) return answer;
    n++;
    const said = `Message ${String(n).padStart(3, '0')}: I disagree a little, the boldest option is the only one that would stand out.`;
    return { kind: 'chat', content: said.padEnd(MESSAGE_BYTES, ' The label, the cap and the bottle read as one family.') };
  };
}

/** Texts of a request's messages joined the way they are billed (role, then content), for the prefix rule. */
function serialise(messages: readonly { role: string; content: string }[]): string {
  return messages.map((m) => `<${m.role}>${m.content}`).join('');
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Raw and billed input tokens of requests in order (a prefix shared with an earlier request at the cached price). */
export function billedTokens(requests: readonly string[]): { raw: number; billed: number } {
  let raw = 0;
  let billed = 0;
  for (const [i, r] of requests.entries()) {
    const tokens = Math.ceil(r.length / 4);
    let shared = 0;
    for (let j = 0; j < i; j++) shared = Math.max(shared, commonPrefix(r, requests[j]!));
    const cached = tokens >= MIN_CACHED_TOKENS ? Math.floor(shared / 4) : 0;
    raw += tokens;
    billed += tokens - cached + cached * CACHED_PRICE_SHARE;
  }
  return { raw, billed };
}

/**
 * The floor of our requests: what they would be billed if every whole message already sent in an earlier request were cached
 * wherever it stands in this one (so in any order of the messages), every other message in full, and a request under
 * 1,024 tokens in full as the cache does. It prices what no reordering of whole messages can make cheaper: the messages a
 * request sends for the first time, and the requests too short to cache.
 */
export function repeatFloor(requests: readonly (readonly { role: string; content: string }[])[]): number {
  const seen = new Set<string>();
  let billed = 0;
  for (const messages of requests) {
    const parts = messages.map((m) => serialise([m]));
    const tokens = Math.ceil(parts.join('').length / 4);
    const repeated = parts.filter((p) => seen.has(p)).reduce((n, p) => n + p.length, 0);
    const cached = tokens >= MIN_CACHED_TOKENS ? Math.floor(repeated / 4) : 0;
    billed += tokens - cached + cached * CACHED_PRICE_SHARE;
    for (const p of parts) seen.add(p);
  }
  return billed;
}

/** Requests under the cache minimum and their tokens: billed in full whatever came before. */
function uncachable(requests: readonly string[]): { requests: number; tokens: number } {
  const small = requests.map((r) => Math.ceil(r.length / 4)).filter((t) => t < MIN_CACHED_TOKENS);
  return { requests: small.length, tokens: small.reduce((a, b) => a + b, 0) };
}

const messagesOf = (r: RecordedRequest) =>
  (r.body as { messages: { role: string; content: unknown }[] }).messages.map((m, k) => ({
    role: m.role,
    content: requestTexts({ messages: [m] }).join('\n') || String(k),
  }));

/**
 * The naive requests on the same turns: the first (system) message as ours, one user message with the brief, every
 * comment, every earlier revised brief and the full transcript so far, then our instructions after the first (every later
 * system message: the member's block and the turn's task, or the facilitator's instructions and the round's), in our order.
 */
async function naiveRequests(root: string, record: RunRecord, ours: readonly RecordedRequest[]): Promise<string[]> {
  const brief = await fs.readFile(path.join(root, 'brief.md'), 'utf8');
  const comments = await Promise.all(
    (await fs.readdir(path.join(root, 'comments'))).sort().map((f) => fs.readFile(path.join(root, 'comments', f), 'utf8')),
  );
  const revised: string[] = [];
  const out: string[] = [];
  let round = 0;
  let said = 0;
  for (const req of ours) {
    const msgs = messagesOf(req);
    const it = record.iterations[round];
    const isTurn = (req.body as { stream?: boolean }).stream === true;
    const isRemix = requestedJsonSchema(req.body)?.name === 'teamfusion_brief';
    const history = record.iterations
      .slice(0, round)
      .flatMap((x) => x.messages)
      .concat(it ? it.messages.slice(0, said) : []);
    const everything = [
      `The client's brief:\n${brief}`,
      `Every member's comments:\n${comments.join('\n')}`,
      ...revised.map((t, k) => `The revised brief of round ${k + 1}:\n${t}`),
      `The discussion so far:\n${history.map((m) => `${m.speaker}: ${m.content}`).join('\n')}`,
    ].join('\n\n');
    const instructions = msgs.slice(1).filter((m) => m.role === 'system');
    if (isTurn || isRemix) out.push(serialise([msgs[0]!, { role: 'user', content: everything }, ...instructions]));
    else out.push(serialise(msgs)); // the direct baseline already carries the brief and every comment, once
    if (isTurn) said++;
    if (isRemix && it?.brief) {
      revised.push(await fs.readFile(path.join(root, 'runs', record.id, it.brief.file), 'utf8'));
      round++;
      said = 0;
    }
  }
  return out;
}

async function briefRun(members: number): Promise<{
  requests: number;
  ours: { raw: number; billed: number };
  naive: { raw: number; billed: number };
  floor: number;
  small: { requests: number; tokens: number };
}> {
  const root = await makeBriefRunReview(members);
  for (const f of await fs.readdir(path.join(root, 'comments'))) {
    const file = path.join(root, 'comments', f);
    await fs.writeFile(file, `${(await fs.readFile(file, 'utf8')).trimEnd()} ${READING}${READING}\n`);
  }
  // Proxy messages of 400 bytes: the one to three sentences the brief style asks for.
  const mock = await MockOpenAI.start({ latencyMs: 0, messageBytes: MESSAGE_BYTES });
  try {
    mock.setFallback(fixedTurns(briefFallback()));
    const client = createModelClient({ apiKey: 'bench-key', baseURL: mock.baseURL, timeoutMs: 30_000, maxRetries: 0 });
    // The bench says yes to the cost question as a user would: the scripted server charges nothing.
    const record = await startRun({
      reviewRoot: root,
      client,
      cacheDir: await makeTempDir('tf-bench-brief-cache-'),
      settings: { iterations: 3, turnsPerAgent: 2 },
      confirm: async () => true,
    });
    if (record.status !== 'completed') throw new Error(`brief bench run ${record.status}: ${record.error}`);
    const chats = mock.requests.filter((r) => r.route === 'chat');
    const ours = chats.map((r) => serialise(messagesOf(r)));
    return {
      requests: chats.length,
      ours: billedTokens(ours),
      naive: billedTokens(await naiveRequests(root, record, chats)),
      floor: repeatFloor(chats.map(messagesOf)),
      small: uncachable(ours),
    };
  } finally {
    await mock.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

export async function benchBrief(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const m of [4, 12]) {
    const r = await briefRun(m);
    const info = (name: string, value: number, unit: string): Row => ({ name: `brief ${m} members: ${name} (info)`, value, unit });
    rows.push(
      info('requests (3 rounds × 2 turns + remix + baseline)', r.requests, 'req'),
      info('billed input tokens, total', Math.round(r.ours.billed), 'tok'),
      info('billed input tokens per member', Math.round(r.ours.billed / m), 'tok'),
      info('naive billed input tokens, total', Math.round(r.naive.billed), 'tok'),
      info('naive billed input tokens per member', Math.round(r.naive.billed / m), 'tok'),
      {
        name: `brief ${m} members: billed input tokens vs naive (cache-discounted)`,
        value: Math.round((r.ours.billed / r.naive.billed) * 1000) / 1000,
        goal: 0.5,
        unit: '×',
      },
      info('raw input tokens vs naive', Math.round((r.ours.raw / r.naive.raw) * 1000) / 1000, '×'),
      info(`input tokens of the ${r.small.requests} requests under 1,024 tokens (never cached)`, r.small.tokens, 'tok'),
    );
    const floor = Math.round((r.floor / r.naive.billed) * 1000) / 1000;
    const floorNote =
      floor > 0.5
        ? ' — above the goal: even with every repeated message cached wherever it stands, what the requests send for the first time and the requests too short to cache cost more than half the naive way'
        : '';
    rows.push({
      name: `brief ${m} members: its floor vs naive: every message an earlier request sent billed as cached wherever it stands${floorNote}`,
      value: floor,
      goal: 0.5,
      unit: '×',
    });
  }
  return rows;
}

if (require.main === module) {
  benchBrief().then(
    (rows) => console.table(rows),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
