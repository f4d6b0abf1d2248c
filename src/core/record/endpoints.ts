/**
 * Where a run's answers came from (contract §8, issue 38 item 5): run.json `endpoints: { chat: { host, scripted },
 * images?: {…}, judge?: {…} }`, one part for each kind of request the run sent, and `scripted: true` only when every part
 * was answered by the bundled scripted server. A part once scripted stays so (a resume against a real endpoint does not
 * make the canned answers real); its host is the one that answered last. A run with some parts scripted is "partly
 * scripted": said part by part, and — like a scripted run — left out of every total.
 */
import type { RunRecord } from './record';

export type EndpointPart = NonNullable<RunRecord['endpoints']>['chat'];
export type EndpointName = 'chat' | 'images' | 'judge';
const PARTS: readonly EndpointName[] = ['chat', 'images', 'judge'];

/** What answered now (a backend's host and scripted mark), merged into what the record says of that part. */
export function mergeEndpoint(
  before: EndpointPart | undefined,
  now: { host?: string | undefined; scripted?: boolean | undefined },
): EndpointPart {
  return { host: now.host ?? before?.host ?? null, scripted: before?.scripted === true || now.scripted === true };
}

/** The parts a record says, an older record's `scripted: true` (no endpoints) read as chat and images both scripted. */
export function endpointParts(record: Pick<RunRecord, 'endpoints' | 'scripted'>): Partial<Record<EndpointName, EndpointPart>> {
  if (record.endpoints) return record.endpoints;
  return record.scripted ? { chat: { host: null, scripted: true }, images: { host: null, scripted: true } } : {};
}

/** Whether every part of the run was answered by the scripted server (then `scripted: true`). */
export function allScripted(endpoints: Partial<Record<EndpointName, EndpointPart>>): boolean {
  const parts = PARTS.flatMap((p) => (endpoints[p] ? [endpoints[p]] : []));
  return parts.length > 0 && parts.every((p) => p.scripted);
}

/** Whether any part of the run was answered by the scripted server: such a run is never part of a total. */
export function anyScripted(record: Pick<RunRecord, 'endpoints' | 'scripted'>): boolean {
  return record.scripted === true || PARTS.some((p) => endpointParts(record)[p]?.scripted === true);
}

const WORDS: Record<EndpointName, string> = { chat: 'chat answers', images: 'images', judge: "judge's verdicts" };

/** A partly scripted run in one sentence, part by part (undefined: no part, or every part, was scripted). */
export function partlyScriptedSentence(record: Pick<RunRecord, 'endpoints' | 'scripted'>): string | undefined {
  const parts = endpointParts(record);
  if (!anyScripted(record) || allScripted(parts)) return undefined;
  const said = PARTS.flatMap((p) => {
    const e = parts[p];
    if (!e) return [];
    return [
      `its ${WORDS[p]} from ${e.scripted ? "TeamFusion's bundled scripted server, not a model" : e.host ? `the model at ${e.host}` : 'a model'}`,
    ];
  });
  return `Partly scripted run: ${said.join('; ')}.`;
}

/** The record with this part set (merged), and `scripted` set only when every part is scripted. */
export function withEndpoint(
  record: RunRecord,
  part: EndpointName,
  now: { host?: string | undefined; scripted?: boolean | undefined },
): RunRecord {
  const before = endpointParts(record);
  const endpoints = { chat: before.chat ?? { host: null, scripted: false }, ...before, [part]: mergeEndpoint(before[part], now) };
  const { scripted: _was, ...rest } = record;
  return { ...rest, endpoints, ...(allScripted(endpoints) ? { scripted: true as const } : {}) };
}
