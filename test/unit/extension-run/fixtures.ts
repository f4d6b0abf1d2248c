import type { RunRecord } from '../../../src/core/record/record';

/** A completed three-iteration record of the sample review's shape. */
export function sampleRecord(over: Partial<RunRecord> = {}): RunRecord {
  return {
    version: 1,
    id: '2026-11-21T22-40-05Z-3f9c',
    status: 'completed',
    startedAt: '2026-11-21T22:40:05Z',
    updatedAt: '2026-11-21T22:45:00Z',
    settings: { chatModel: 'gpt-4o', imageModel: 'gpt-image-1', turnsPerAgent: 2, iterations: 3 },
    options: [
      { id: '1', label: 'Image 1', file: 'options/1.png' },
      { id: '2', label: 'Image 2', file: 'options/2.png' },
      { id: '3', label: 'Image 3', file: 'options/3.png' },
      { id: 'r1', label: 'Image 7', file: 'runs/2026-11-21T22-40-05Z-3f9c/iteration-1/remix.png' },
      { id: 'r2', label: 'Image 8', file: 'runs/2026-11-21T22-40-05Z-3f9c/iteration-2/remix.png' },
    ],
    iterations: [
      {
        index: 1,
        candidates: ['1', '2', '3'],
        messages: [{ speaker: 'ana', turn: 1, content: 'I still like Image 2.' }],
        ranking: ['2', '1', '3'],
        editingDirections: 'Warmer light on the bottle.\nLess text.',
        remix: { id: 'r1', file: 'iteration-1/remix.png' },
      },
      {
        index: 2,
        candidates: ['2', '1', 'r1'],
        messages: [],
        ranking: ['r1', '2'],
        editingDirections: '- Keep the cap of Image 2; softer shadow.\n- Drop the tagline.',
        remix: { id: 'r2', file: 'iteration-2/remix.png' },
      },
      { index: 3, candidates: ['r2', 'r1'], final: true, messages: [], ranking: ['r2', 'r1'] },
    ],
    finalPick: 'r2',
    usage: { inputTokens: 12000, cachedInputTokens: 4000, outputTokens: 900, images: 2, costUsd: 0.123 },
    prompts: [],
    kendallW: 0.4123,
    ...over,
  };
}
