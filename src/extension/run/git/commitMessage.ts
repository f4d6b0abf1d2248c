/**
 * The commit message TeamFusion pre-fills for a run: a subject with the outcome, a body with the final ranking and the
 * first line of the editing directions. Pure; the user reviews and commits it themselves.
 */
import { remixesOf } from '../../../core/record/remixes';
import type { Iteration, RunRecord } from '../../../core/record/record';
import { labelOf } from '../eventText';

function lastWith<K extends keyof Iteration>(record: RunRecord, key: K): Iteration | undefined {
  for (let i = record.iterations.length - 1; i >= 0; i--) {
    const it = record.iterations[i];
    const value = it?.[key];
    if (it && value !== undefined && !(Array.isArray(value) && value.length === 0) && value !== '') return it;
  }
  return undefined;
}

function firstLine(text: string): string {
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return line.replace(/^[-*#>\s]+/, '');
}

function formatW(w: number): string {
  return w.toFixed(2);
}

export function buildCommitMessage(record: RunRecord): string {
  const ranked = lastWith(record, 'ranking');
  const pickId = record.finalPick ?? ranked?.ranking?.[0];
  const parts: string[] = [];
  if (pickId) parts.push(`${record.finalPick ? 'final pick' : 'leading'} ${labelOf(record, pickId)}`);
  else parts.push(record.status);
  if (record.kendallW !== undefined) parts.push(`team W ${formatW(record.kendallW)}`);
  const subject = `TeamFusion run ${record.id}: ${parts.join(', ')}`;

  const body: string[] = [];
  const s = record.settings;
  body.push(
    `Status: ${record.status}, ${record.iterations.length} iteration(s), ${s.turnsPerAgent} turn(s) per agent; ` +
      `models ${s.chatModel} + ${s.imageModel}.`,
  );
  if (record.status !== 'completed' && record.error) body.push(`Stopped: ${firstLine(record.error)}`);
  if (ranked?.ranking?.length) {
    body.push('', `Final ranking (iteration ${ranked.index}):`);
    ranked.ranking.forEach((id, i) => body.push(`${i + 1}. ${labelOf(record, id)}`));
  }
  const directed = lastWith(record, 'editingDirections');
  if (directed?.editingDirections) {
    body.push('', `Editing directions (iteration ${directed.index}): ${firstLine(directed.editingDirections)}`);
  }
  const remixes = record.iterations.flatMap((it) => remixesOf(it).map((m) => `${m.id} = ${m.file}`));
  if (remixes.length) body.push('', `Remixes: ${remixes.join(', ')}`);
  if (record.kendallW !== undefined) body.push(`Team agreement before the run: Kendall's W ${formatW(record.kendallW)}.`);
  const u = record.usage;
  const cost = u.costUsd !== undefined ? `, about $${u.costUsd.toFixed(2)}` : '';
  body.push(
    `Usage: ${u.inputTokens} input tokens (${u.cachedInputTokens} cached), ${u.outputTokens} output tokens, ` +
      `${u.images} image(s)${cost}.`,
  );
  return `${subject}\n\n${body.join('\n')}\n`;
}
