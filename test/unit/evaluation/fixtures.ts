/** A review with a completed three-iteration run (written by hand, no model), for the re-ranking tests. */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { RunRecord } from '../../../src/core/record/record';
import { makeImage, makeReview } from '../run/fixtures';

export const RUN_ID = '2026-11-21T22-40-05Z-3f9c';
/** The last iteration's candidates: two original options and the second remix. */
export const FINAL = ['2', '4', 'r2'];

export async function makeReviewWithRun(status: RunRecord['status'] = 'completed'): Promise<string> {
  const root = await makeReview({ options: 6, designers: 4, size: 160 });
  const runFolder = path.join(root, 'runs', RUN_ID);
  for (const k of [1, 2]) {
    await fs.mkdir(path.join(runFolder, `iteration-${k}`), { recursive: true });
    await makeImage(path.join(runFolder, `iteration-${k}`, 'remix.png'), 40 + k, 160, 120, 'png');
  }
  const at = '2026-11-21T22:40:05.000Z';
  const record: RunRecord = {
    version: 1,
    id: RUN_ID,
    status,
    startedAt: at,
    updatedAt: at,
    settings: { chatModel: 'gpt-4o', imageModel: 'gpt-image-1', turnsPerAgent: 1, iterations: 3 },
    options: [
      ...['1', '2', '3', '4', '5', '6'].map((id, i) => ({ id, label: `Image ${i + 1}`, file: `options/${id}.png` })),
      { id: 'r1', label: 'Image 7', file: `runs/${RUN_ID}/iteration-1/remix.png` },
      { id: 'r2', label: 'Image 8', file: `runs/${RUN_ID}/iteration-2/remix.png` },
    ],
    iterations: [
      {
        index: 1,
        candidates: ['1', '2', '3', '4', '5', '6'],
        messages: [
          { speaker: 'd1', turn: 1, content: 'Option 4 is calm and premium.' },
          { speaker: 'd2', turn: 1, content: 'I prefer 3 for its warmth.' },
          { speaker: 'g1', kind: 'guest', turn: 1, content: 'A retailer would pick 2.' },
          { speaker: 'd1', turn: 2, content: 'Combine the bottle of 4 with the light of 3.' },
        ],
        ranking: ['2', '4', '1'],
        remix: { id: 'r1', file: 'iteration-1/remix.png' },
      },
      {
        index: 2,
        candidates: ['2', '4', '1', 'r1'],
        messages: [],
        ranking: ['2', '4'],
        remix: { id: 'r2', file: 'iteration-2/remix.png' },
      },
      { index: 3, candidates: FINAL, final: true, messages: [], ranking: ['r2', '2', '4'] },
    ],
    ...(status === 'completed' ? { finalPick: 'r2' } : {}),
    usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 100, images: 2, costUsd: 0.21 },
    prompts: [1, 2].map((k) => ({
      id: `p${k}`,
      iteration: k,
      kind: 'image-edit' as const,
      model: 'gpt-image-1',
      at,
      usage: { images: 1, costUsd: 0.042 },
    })),
  };
  await fs.writeFile(path.join(runFolder, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
  return root;
}

/** Writes a ranking of the re-ranking folder: `ranks` maps option id → rank. */
export async function writeRerankRanking(dir: string, id: string, ranks: Record<string, number>): Promise<void> {
  const lines = [`designer: ${id.toUpperCase()}`, 'ranking:'];
  for (const [option, rank] of Object.entries(ranks)) {
    lines.push(`  - option: "${option}"`, `    rank: ${rank}`, `    justification: ${option} ranked ${rank} after the run.`);
  }
  await fs.writeFile(path.join(dir, 'rankings', `${id}.yaml`), `${lines.join('\n')}\n`);
}

/** Every file under `root` (relative, '/') with its bytes, for "nothing else changed" checks. */
export async function snapshot(root: string, skip: (rel: string) => boolean = () => false): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    for (const e of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (skip(rel)) continue;
      if (e.isDirectory()) await walk(full);
      else out.set(rel, (await fs.readFile(full)).toString('base64'));
    }
  };
  await walk(root);
  return out;
}

/** The blind re-rank key of a run's folder. */
export async function readKeyFile(root: string): Promise<Record<string, { kind: 'option' | 'remix'; id: string; file: string }>> {
  return JSON.parse(await fs.readFile(path.join(root, 'runs', RUN_ID, 'rerank', 'key.json'), 'utf8')) as Record<
    string,
    { kind: 'option' | 'remix'; id: string; file: string }
  >;
}

/** Writes a re-ranking that lists source ids best first (translated to letters through the key). */
export async function writeRerankBySource(root: string, designer: string, bestFirst: readonly string[]): Promise<void> {
  const key = await readKeyFile(root);
  const letterOf = new Map(Object.entries(key).map(([letter, e]) => [e.id, letter]));
  const ranks: Record<string, number> = {};
  bestFirst.forEach((id, i) => (ranks[letterOf.get(id)!] = i + 1));
  await writeRerankRanking(path.join(root, 'runs', RUN_ID, 'rerank'), designer, ranks);
}

/** Rewrites the fixture run's run.json through `change` (a hand edit, as a team's tool would make it). */
export async function editRun(root: string, change: (record: RunRecord) => void): Promise<void> {
  const file = path.join(root, 'runs', RUN_ID, 'run.json');
  const record = JSON.parse(await fs.readFile(file, 'utf8')) as RunRecord;
  change(record);
  await fs.writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * Turns the fixture run's first round into a fork (issue 33): one remix per side of decision point 1 (r1a warm, r1b cool)
 * in place of r1, each its own image; the second round takes both in.
 */
export async function forkFirstRound(root: string): Promise<void> {
  const folder = path.join(root, 'runs', RUN_ID, 'iteration-1');
  await fs.rm(path.join(folder, 'remix.png'));
  await makeImage(path.join(folder, 'remix-a.png'), 71, 160, 120, 'png');
  await makeImage(path.join(folder, 'remix-b.png'), 72, 160, 120, 'png');
  const question = 'Warm or cool palette?';
  await editRun(root, (record) => {
    const it1 = record.iterations[0]!;
    delete it1.remix;
    it1.decisionPoints = [
      {
        question,
        positions: [
          { position: 'warm palette', heldBy: ['d1', 'd2'] },
          { position: 'cool palette', heldBy: ['d3', 'd4'] },
        ],
      },
    ];
    it1.proposals = [
      { letter: 'a', from: ['2', '4'], editingDirections: 'Image 2 with the warm palette of Image 3.' },
      { letter: 'b', from: ['2', '4'], editingDirections: 'Image 2 in a cool palette.' },
    ];
    it1.remixes = (['a', 'b'] as const).map((letter, i) => ({
      id: `r1${letter}`,
      letter,
      file: `iteration-1/remix-${letter}.png`,
      fork: { question, position: it1.decisionPoints![0]!.positions[i]!.position, decisionPoint: 1 },
    }));
    record.options = [
      ...record.options.filter((o) => o.id !== 'r1' && o.id !== 'r2'),
      { id: 'r1a', label: 'Image 7', file: `runs/${RUN_ID}/iteration-1/remix-a.png` },
      { id: 'r1b', label: 'Image 8', file: `runs/${RUN_ID}/iteration-1/remix-b.png` },
      { id: 'r2', label: 'Image 9', file: `runs/${RUN_ID}/iteration-2/remix.png` },
    ];
    record.iterations[1]!.candidates = ['2', '4', 'r1a', 'r1b'];
  });
}
