/**
 * Scripting for brief reviews (issue 17): plausible answers of the brief remix agent (`teamfusion_brief`) built from the
 * request's own schema (the member ids are its enums), and of the judge (`teamfusion_judge`). Use as a fallback:
 * `mock.setFallback(briefFallback({ leftOut: ['dev'] }))`; other requests get the default answers.
 */
import { isObject } from './openapiSchema';
import { requestedJsonSchema, requestTexts } from './autoResponder';
import type { MockFallback, MockReply, RecordedRequest } from './types';

export interface BriefScript {
  /** Member ids whose points the revised brief leaves out. */
  leftOut?: string[];
  /** Also report coverage for these ids (not on the team: the engine must drop them). */
  strangers?: string[];
  /** The judge's verdict per dimension in the order asked ("A" | "B" | "tie"); default always "A" (a position bias). */
  judge?: (dimension: string, request: RecordedRequest) => 'A' | 'B' | 'tie';
}

/** The member ids a brief remix request's schema allows (its coverage designer enum). */
export function memberIdsOf(body: unknown): string[] {
  const wanted = requestedJsonSchema(body);
  const s = wanted?.schema;
  const cov = isObject(s) && isObject(s.properties) ? s.properties.coverage : undefined;
  const items = isObject(cov) ? cov.items : undefined;
  const designer = isObject(items) && isObject(items.properties) ? items.properties.designer : undefined;
  return isObject(designer) && Array.isArray(designer.enum) ? designer.enum.filter((x): x is string => typeof x === 'string') : [];
}

/** A brief remix answer: a revised brief naming the round, one kept and one changed point per member (or one left out). */
export function briefRemixValue(req: RecordedRequest, script: BriefScript = {}): Record<string, unknown> {
  const ids = memberIdsOf(req.body);
  const round = /This is round (\d+)/.exec(requestTexts(req.body).join('\n'))?.[1] ?? '?';
  const coverage: Record<string, unknown>[] = [];
  for (const id of [...ids, ...(script.strangers ?? [])]) {
    if (script.leftOut?.includes(id)) {
      coverage.push({ designer: id, point: `${id}'s point on the audience`, status: 'left-out', quote: null });
      continue;
    }
    coverage.push({ designer: id, point: `${id}'s point on the goal`, status: 'kept', quote: `Goal (round ${round})` });
    coverage.push({ designer: id, point: `${id}'s point on tone`, status: 'changed', quote: 'Tone: calm' });
  }
  return {
    revisedBrief: `# Revised brief (round ${round})\n\n## Goal (round ${round})\n\nAwareness first.\n\n## Tone: calm\n\nQuiet confidence.\n`,
    agreements: ['The goal is awareness, not sales.'],
    disagreements:
      ids.length >= 2
        ? [
            {
              question: 'Who is the audience?',
              positions: [
                { position: 'Young urban buyers', heldBy: [ids[0]] },
                { position: 'Gift buyers', heldBy: [ids[1]] },
              ],
            },
          ]
        : [],
    tradeOffs: ['A calmer tone gives up some shelf impact.'],
    openQuestions: ['Is there a budget for outdoor?'],
    coverage,
  };
}

/** Which revision a judge request shows as A: the revised brief (briefRemixValue's starts "# Revised brief") or the baseline. */
export function judgeShownAsA(req: RecordedRequest): 'teamfusion' | 'direct' {
  return /Brief A \(quoted as one JSON string\): "# Revised brief/.test(requestTexts(req.body).join('\n')) ? 'teamfusion' : 'direct';
}

/** Answers `teamfusion_brief` and `teamfusion_judge` requests; undefined (the default answer) for everything else. */
export function briefFallback(script: BriefScript = {}): MockFallback {
  return (req): MockReply | undefined => {
    const wanted = requestedJsonSchema(req.body);
    if (wanted?.name === 'teamfusion_brief') return { kind: 'json', value: briefRemixValue(req, script) };
    if (wanted?.name === 'teamfusion_judge') {
      const dimension = /Dimension: ([a-z ]+?)\./i.exec(requestTexts(req.body).join('\n'))?.[1] ?? '';
      const verdict = script.judge ? script.judge(dimension, req) : 'A';
      return { kind: 'json', value: { reason: `On ${dimension}, this one is better.`, better: verdict } };
    }
    return undefined;
  };
}
