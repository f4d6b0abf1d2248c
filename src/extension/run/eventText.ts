/**
 * Words for run events: one Output-channel line per event, the progress notification's message, the status bar text.
 * Pure functions over RunEvent / RunRecord.
 */
import type { RunEvent } from '../../core/step/events';
import type { RunRecord } from '../../core/record/record';

const MAX_LOGGED_MESSAGE = 2000;

function oneLine(text: string, max = MAX_LOGGED_MESSAGE): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * One line for the Output channel, or undefined for events not worth a line of their own (streamed deltas).
 * The message text may be logged; secrets are never part of an event (and the log is redacted on top).
 */
export function eventLogLine(e: RunEvent): string | undefined {
  switch (e.type) {
    case 'run-started':
      return `[${e.runId}] ${e.resumed ? 'resumed' : 'started'} in ${e.runDir}`;
    case 'iteration-started':
      return `[${e.runId}] iteration ${e.iteration}${e.final ? ' (final pick)' : ''}: candidates ${e.candidates.join(', ')}`;
    case 'turn-started':
      return `[${e.runId}] iteration ${e.iteration}: ${e.speakerName} (${e.speaker}), turn ${e.turn}…`;
    case 'turn-delta':
      return undefined;
    case 'turn-completed':
      return `[${e.runId}] iteration ${e.iteration}: ${e.message.speaker}, turn ${e.message.turn}: ${oneLine(e.message.content)}`;
    case 'remix-agent-completed': {
      const it = e.iteration;
      const ranking = it.ranking?.length ? it.ranking.join(' > ') : 'no ranking';
      const directions = it.editingDirections
        ? `; directions: ${oneLine(it.editingDirections, 300)}`
        : it.proposals?.length
          ? it.proposals.length === 1
            ? `; directions (${it.proposals[0]!.letter}): ${oneLine(it.proposals[0]!.editingDirections, 300)}`
            : `; ${it.proposals.length} remix proposals: ${it.proposals.map((p) => `${p.letter}) ${oneLine(p.editingDirections, 140)}`).join(' ')}`
          : '';
      return `[${e.runId}] iteration ${it.index}: remix agent ranking ${ranking}${directions}`;
    }
    case 'image-edit-started':
      return `[${e.runId}] iteration ${e.iteration}: image edit${e.remixId ? ` ${e.remixId}` : ''} from ${e.from.join(', ')}…`;
    case 'remix-created':
      return `[${e.runId}] iteration ${e.iteration}: remix ${e.remixId} written to ${e.file}`;
    case 'notice':
      return `[${e.runId}] ${e.level}: ${oneLine(e.message)}`;
    case 'record-saved':
      return `[${e.runId}] run.json saved (${e.record.status}, ${e.record.iterations.length} iteration(s))`;
    case 'run-finished':
      return `[${e.runId}] finished: ${e.status}${e.error ? ` — ${oneLine(e.error)}` : ''}`;
    case 'waiting':
      return `[${e.runId}] iteration ${e.waitingFor.iteration}: waiting for ${e.speakerName} (${e.waitingFor.speaker}), turn ${e.waitingFor.turn}`;
    case 'pins-changed':
      return `[${e.runId}] pinned: ${e.pins.map((p) => p.message).join(', ') || 'nothing'}`;
  }
}

/** The log level an event deserves. */
export function eventLogLevel(e: RunEvent): 'info' | 'warn' | 'error' | 'trace' {
  if (e.type === 'turn-delta' || e.type === 'record-saved') return 'trace';
  // A notice whose words the log already has (the run's own log line) is kept at trace, not said twice.
  if (e.type === 'notice') return e.logged ? 'trace' : e.level === 'info' ? 'info' : e.level === 'warning' ? 'warn' : 'error';
  if (e.type === 'run-finished' && e.status === 'failed') return 'error';
  return 'info';
}

/** The progress notification's message after this event, or undefined to keep the current one. */
export function progressMessage(e: RunEvent): string | undefined {
  switch (e.type) {
    case 'run-started':
      return e.resumed ? 'Resuming…' : 'Starting…';
    case 'iteration-started':
      return e.final
        ? `Iteration ${e.iteration} · final pick among ${e.candidates.length} candidates`
        : `Iteration ${e.iteration} · discussing ${e.candidates.length} candidates`;
    case 'turn-started':
      return `Iteration ${e.iteration} · ${e.speakerName}, ${e.turn === null ? 'asked to speak' : `turn ${e.turn}`}`;
    case 'waiting':
      return `Iteration ${e.waitingFor.iteration} · waiting for ${e.speakerName} to answer in the panel`;
    case 'remix-agent-completed':
      return `Iteration ${e.iteration.index} · remix agent agreed on ${e.iteration.ranking?.slice(0, 3).join(', ') ?? 'a ranking'}`;
    case 'image-edit-started':
      return `Iteration ${e.iteration} · making the remix${e.remixId ? ` ${e.remixId}` : ''}`;
    case 'remix-created':
      return `Iteration ${e.iteration} · remix ${e.remixId} ready`;
    case 'notice':
      return e.level === 'info' ? undefined : oneLine(e.message, 120);
    default:
      return undefined;
  }
}

/** Status bar text while a run is active. `total` may be unknown before the first record is saved. */
export function statusBarText(iteration: number | undefined, total: number | undefined, activeRuns = 1): string {
  const more = activeRuns > 1 ? ` (+${activeRuns - 1})` : '';
  if (!iteration) return `$(sync~spin) TeamFusion: starting${more}`;
  const of = total && total >= iteration ? `/${total}` : '';
  return `$(sync~spin) TeamFusion: iteration ${iteration}${of}${more}`;
}

/** A short sentence about a finished run for a notification. */
export function outcomeSentence(record: RunRecord): string {
  const pick = record.finalPick ? `final pick ${labelOf(record, record.finalPick)}` : undefined;
  switch (record.status) {
    case 'completed':
      return `TeamFusion run ${record.id} completed${pick ? `: ${pick}` : ''}.`;
    case 'cancelled':
      return `TeamFusion run ${record.id} was cancelled after ${record.iterations.length} iteration(s). You can resume it.`;
    case 'failed':
      return `TeamFusion run ${record.id} failed: ${record.error ?? 'the reason is in the log'}`;
    case 'running':
      return `TeamFusion run ${record.id} stopped while still marked as running.`;
    case 'waiting':
      return `TeamFusion run ${record.id} waits for ${record.waitingFor?.speaker ?? 'a designer'} to speak; answer in the panel's Run tab.`;
  }
}

/** "Image 3 (r2)"-style label of an option or remix id; the bare id when the record has no label for it. */
export function labelOf(record: Pick<RunRecord, 'options'>, id: string): string {
  const option = record.options.find((o) => o.id === id);
  if (!option || option.label === id) return id;
  return `${option.label} (${id})`;
}
