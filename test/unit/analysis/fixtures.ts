/** A review with a recorded run (no model needed to make it) and a scripted coder for the mock server. */
import type { MockOpenAI, MockReply, RecordedRequest } from '../../support/openaiMock';
import { normaliseMessages, type RunRecord } from '../../../src/core/record/record';
import { writeRunRecord } from '../../../src/core/record/store';
import { makeReview } from '../run/fixtures';

export const RUN_ID = '2026-11-21T22-40-05Z-3f9c';

const LINES = [
  'Image 1 has the calmest palette; I would lead with it.',
  'I agree, Image 1 reads clearly.',
  'What do you think about the typography in Image 3?',
  'No, Image 3 is too loud for a perfume.',
  'Let us combine the palette of Image 1 with the bottle of Image 2.',
  'Fine by me.',
];

/** Review fixture (designers d1…d3: top choices "1", "2", "3") with a completed run of 2 rounds, 6 + 5 messages (a guest speaks once). */
export async function reviewWithRun(
  o: { status?: RunRecord['status']; backed?: boolean } = {},
): Promise<{ root: string; record: RunRecord }> {
  const root = await makeReview({ options: 4, designers: 3, size: 64 });
  const speakers = ['d1', 'd2', 'd3'];
  const round1 = LINES.map((content, i) => ({ speaker: speakers[i % 3]!, turn: Math.floor(i / 3) + 1, content }));
  const round2 = LINES.slice(0, 4).map((content, i) => ({ speaker: speakers[i % 3]!, turn: Math.floor(i / 3) + 1, content }));
  round2.push({ speaker: 'guest-critic', turn: 1, content: 'From outside: Image 2 is the one I would remember.', kind: 'guest' } as never);
  const record: RunRecord = normaliseMessages({
    version: 1,
    id: RUN_ID,
    status: o.status ?? 'completed',
    startedAt: '2026-11-21T22:40:05Z',
    updatedAt: '2026-11-21T22:50:05Z',
    settings: { chatModel: 'gpt-4o-mini', imageModel: 'gpt-image-1', turnsPerAgent: 2, iterations: 2 },
    options: ['1', '2', '3', '4'].map((id, i) => ({ id, label: `Image ${i + 1}`, file: `options/${id}.png` })),
    iterations: [
      {
        index: 1,
        candidates: ['1', '2', '3', '4'],
        messages: round1,
        ranking: ['1', '2', '3'],
        ...(o.backed === false ? {} : { backed: { d1: '1', d2: '1', d3: '3' } }),
      },
      {
        index: 2,
        candidates: ['1', '2'],
        final: true,
        messages: round2,
        ranking: ['1', '2'],
        ...(o.backed === false ? {} : { backed: { d1: '1', d2: '1', d3: null } }),
      },
    ],
    finalPick: '1',
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 0 },
    prompts: [],
  });
  await writeRunRecord(root, record);
  return { root, record };
}

/** The category the scripted model gives a message: fixed by its id, so a test can say what each one must be. */
export function categoryFor(id: string): number {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 9973;
  return (h % 13) + 1;
}

export interface CodingSchema {
  name: string;
  strict: boolean;
  schema: {
    properties: {
      codes: { minItems: number; items: { properties: { message: { enum: string[] }; category: { type: string; enum: number[] } } } };
    };
  };
}

export function codingSchemaOf(body: unknown): CodingSchema | undefined {
  const rf = (body as { response_format?: { type?: string; json_schema?: CodingSchema } }).response_format;
  return rf?.type === 'json_schema' && rf.json_schema?.name === 'teamfusion_bales_codes' ? rf.json_schema : undefined;
}

export function askedIds(body: unknown): string[] {
  return codingSchemaOf(body)?.schema.properties.codes.items.properties.message.enum ?? [];
}

/** A fallback that answers every coding request with categoryFor(id) for each asked id. */
export function scriptedCoder(mock: MockOpenAI, tweak?: (ids: string[], req: RecordedRequest) => MockReply | undefined): void {
  mock.setFallback((req) => {
    const ids = askedIds(req.body);
    if (ids.length === 0) return undefined;
    return tweak?.(ids, req) ?? { kind: 'json', value: { codes: ids.map((id) => ({ message: id, category: categoryFor(id) })) } };
  });
}
