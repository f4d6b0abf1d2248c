/**
 * The design demo's scripted blind re-rankings (scripts/demo.mjs): each designer orders a run's blind set in their own view
 * (personaView.ts) — an original at its rank in their file, a remix by what leads it (its fork's side, else its first
 * source) and its other sources — the same view their scripted proxy forecasts with. Read from the run's own files.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { personaView } from './personaView';
import type { MadeFrom, Persona } from './requestFacts';

interface RecordedRemix {
  id: string;
  from: string[];
  fork?: { position: string };
}

interface RunFile {
  options: Array<{ id: string; label: string }>;
  iterations: Array<{ remixes?: RecordedRemix[]; remix?: RecordedRemix }>;
}

/** Each designer's blind order of the set's letters (designer id → letters, best first), with their name. */
export async function scriptedBlindRankings(
  review: string,
  runId: string,
): Promise<Array<{ id: string; name: string; letters: string[] }>> {
  const runDir = path.join(review, 'runs', runId);
  const run = JSON.parse(await fs.readFile(path.join(runDir, 'run.json'), 'utf8')) as RunFile;
  const key = JSON.parse(await fs.readFile(path.join(runDir, 'rerank', 'key.json'), 'utf8')) as Record<string, { id: string }>;
  const idOfLabel = new Map(run.options.map((o) => [o.label, o.id]));
  // Ids stand for labels here: the view only compares them.
  const facts = new Map<string, MadeFrom>();
  for (const it of run.iterations) {
    for (const m of [...(it.remixes ?? []), ...(it.remix ? [it.remix] : [])]) {
      const side = m.fork?.position;
      const named = side && /^(Image \d+) leads$/.exec(side)?.[1];
      facts.set(m.id, { from: m.from, ...(side ? { side } : {}), lead: (named && idOfLabel.get(named)) || m.from[0]! });
    }
  }
  const letters = Object.keys(key).sort((a, b) => a.length - b.length || a.localeCompare(b));
  const out: Array<{ id: string; name: string; letters: string[] }> = [];
  for (const f of (await fs.readdir(path.join(review, 'rankings'))).sort()) {
    const text = await fs.readFile(path.join(review, 'rankings', f), 'utf8');
    const doc = (f.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as {
      designer: string;
      ranking: Array<{ option: string; rank: number; justification: string }>;
    };
    const persona: Persona = {
      name: doc.designer,
      ranking: doc.ranking.map((r) => ({ label: r.option, rank: r.rank, inRunning: true, reason: r.justification })),
    };
    const order = personaView(
      persona,
      letters.map((l) => key[l]!.id),
      facts,
    ).order;
    out.push({ id: f.replace(/\.\w+$/, ''), name: doc.designer, letters: order.map((id) => letters.find((l) => key[l]!.id === id)!) });
  }
  return out;
}
