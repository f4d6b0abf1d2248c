/**
 * How a run was made and what its remixes cost, in words: one source for result.md and the panel's run details.
 * Pure (no I/O, no vscode), so the webview bundle can use it too.
 */
import { DISCUSSION_DEFAULTS, LEGACY_DISCUSSION, checklistRepeatOf } from '../settings/discussionSettings';
import type { RunRecord } from '../record/record';
import { poolOf, remixesOf } from '../record/remixes';

type Facts = Pick<RunRecord, 'settings' | 'iterations'> & { task?: RunRecord['task'] };

/** Average estimated cost of one remixed image (the image edit's own cost), or undefined when none is known. */
export function costPerRemix(r: Facts): number | undefined {
  const costs = r.iterations.flatMap((it) => remixesOf(it).flatMap((m) => (m.costUsd === undefined ? [] : [m.costUsd])));
  if (costs.length === 0) return undefined;
  return costs.reduce((a, b) => a + b, 0) / costs.length;
}

/** Label → value lines describing the discussion design of the run, as recorded. */
export function discussionFacts(r: Facts): [string, string][] {
  const s = r.settings;
  const mode = s.mode ?? LEGACY_DISCUSSION.mode;
  const order = s.order ?? LEGACY_DISCUSSION.order;
  const rows: [string, string][] = [
    [
      'Mode',
      mode === 'separate-then-together' ? `${mode} (at most ${s.maxConcurrency ?? DISCUSSION_DEFAULTS.maxConcurrency} at once)` : mode,
    ],
    [
      'Speaking order',
      `${order}${s.orderSeed !== undefined && order !== 'fixed' ? `, seed ${s.orderSeed}` : ''}${s.lead ? `; lead ${s.lead}${s.leadSpeaksLast === false ? '' : ' speaks last'}` : ''}`,
    ],
    ['Hierarchy', s.hierarchy ?? DISCUSSION_DEFAULTS.hierarchy],
    ['Persona role', s.personaRole ?? DISCUSSION_DEFAULTS.personaRole],
  ];
  if (s.temperature !== undefined) rows.push(['Temperature', String(s.temperature)]);
  if (s.imageSize || s.imageQuality) rows.push(['Remix image', `${s.imageSize ?? 'auto'}, ${s.imageQuality ?? 'auto'} quality`]);
  if ((s.remixesPerIteration ?? 1) > 1) rows.push(['Remixes a round', `${s.remixesPerIteration}, each its own image edit`]);
  // The pool and the checklist are a design run's (a brief run records them but never uses them).
  const design = (r.task ?? 'design') === 'design';
  const repeat = design ? checklistRepeatOf(s) : 0;
  if (repeat) rows.push(['Checklist', `the brief's must-haves, each remix checked ${repeat === 1 ? 'once' : `${repeat} times`}`]);
  if (design && poolOf(s) > 1)
    rows.push(['Pool', `${poolOf(s)} sets of directions a remix round, ranked by every proxy, elected by Schulze`]);
  if (s.designers) rows.push(['Designers taking part', s.designers.join(', ')]);
  if (s.prompts?.goal) rows.push(['Goal (team prompt)', s.prompts.goal]);
  if (s.prompts?.style) rows.push(['Style (team prompt)', s.prompts.style]);
  if (s.prompts?.collaborativeMove) rows.push(['Collaborative move (team prompt)', s.prompts.collaborativeMove]);
  return rows;
}
