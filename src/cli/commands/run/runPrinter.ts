/**
 * What `teamfusion run` prints while a run goes: an observer of the run's events (core/run/session.ts). One event, one
 * line; model or file text only through printable(), so no control sequence reaches the terminal.
 */
import { typedWords } from '../../../core/authorship/typist';
import * as path from 'node:path';
import type { Review } from '../../../core/review/model';
import type { RunEvent } from '../../../core/step/events';
import type { RunRecord } from '../../../core/record/record';
import { coverageCounts } from '../../../core/run/brief/briefTask';
import { printable, writeLine } from '../../output';

export class RunPrinter {
  /** Turns that run concurrently (independent, separate) are printed whole when they complete. */
  private readonly concurrent = new Set<string>();
  /** The record as last saved (its labels name the remixes made so far). */
  private latest: RunRecord | undefined;
  private review: Review | undefined;

  constructor(private readonly out: (s: string) => void) {}

  /** The review the run is on: its people's names. */
  know(review: Review): void {
    this.review = review;
  }

  /** A person's name as the review spells it (a designer's ranking, a member's comment), else the id. */
  speakerName(id: string): string {
    const review = this.review;
    return review?.designers.find((d) => d.id === id)?.name ?? review?.comments.find((c) => c.designer === id)?.name ?? id;
  }

  event(e: RunEvent): void {
    if (e.type === 'record-saved') this.latest = e.record;
    const label = (id: string): string => (this.latest ? labelOf(this.latest, id) : id);
    const out = this.out;
    const line = (s: string): void => out(`${printable(s)}\n`);
    const speakerName = (id: string): string => this.speakerName(id);
    const concurrent = this.concurrent;
    switch (e.type) {
      case 'run-started':
        line(`${e.resumed ? 'Resuming' : 'Starting'} run ${e.runId} in ${displayPath(e.runDir)}`);
        break;
      case 'iteration-started':
        out('\n');
        line(
          e.candidates.length === 0
            ? `== Round ${e.iteration}${e.final ? ' (last)' : ''}: the brief ==`
            : `== Iteration ${e.iteration}${e.final ? ' (final pick)' : ''}: ${e.candidates.length} candidates ==`,
        );
        break;
      case 'turn-started':
        // Turns that run concurrently (independent, separate) are printed whole when they complete.
        if (e.phase === 'independent' || e.phase === 'separate') concurrent.add(`${e.iteration}|${e.speaker}|${e.turn}`);
        else out(printable(`${e.speakerName} (${e.kind === 'guest' ? 'guest' : e.turn === null ? 'extra turn' : `turn ${e.turn}`}): `));
        break;
      case 'turn-delta':
        // Streamed model text: line breaks become spaces (one turn, one line), every other control character is escaped.
        if (!concurrent.has(`${e.iteration}|${e.speaker}|${e.turn}`)) out(printable(oneLine(e.text)));
        break;
      case 'turn-completed': {
        const k = `${e.iteration}|${e.message.speaker}|${e.message.turn}`;
        // People's messages arrive whole (no deltas); concurrent turns are printed when they complete.
        if (e.message.kind === 'human') {
          const how = e.message.typedBy !== undefined ? typedWords(e.message.typedBy, e.message.speaker, speakerName) : 'in person';
          line(`${speakerName(e.message.speaker)} (${how}): ${oneLine(e.message.content)}`);
        } else if (concurrent.delete(k))
          line(`${speakerName(e.message.speaker)} (turn ${e.message.turn}, ${e.message.phase}): ${oneLine(e.message.content)}`);
        else out('\n');
        break;
      }
      case 'waiting':
        line(
          e.waitingFor.forkChoice
            ? `Waiting for ${e.speakerName} to pick which decision point iteration ${e.waitingFor.iteration} forks.`
            : `Waiting for ${e.speakerName} (iteration ${e.waitingFor.iteration}, turn ${e.waitingFor.turn}).`,
        );
        break;
      case 'pins-changed':
        line(`Pins: ${e.pins.map((p) => p.message).join(', ') || 'none'}`);
        break;
      case 'remix-agent-completed':
        if (e.iteration.brief) {
          const c = coverageCounts(e.iteration.brief.coverage);
          line(`Revised brief: ${e.iteration.brief.file} (coverage: ${c.kept} kept, ${c.changed} changed, ${c.leftOut} left out)`);
          break;
        }
        line(`${e.iteration.final ? 'Final ranking' : 'Consensus'}: ${(e.iteration.ranking ?? []).map(label).join(', ')}`);
        break;
      case 'image-edit-started':
        line(`Making the remix${e.remixId ? ` ${e.remixId}` : ''} from ${e.from.map(label).join(', ')}…`);
        break;
      case 'remix-created':
        line(`Remix ${e.remixId} saved: ${e.file}`);
        break;
      case 'notice':
        if (!e.logged) writeLine(process.stderr, `${e.level}: ${e.message}`);
        break;
      default:
        break;
    }
  }
}

/** Model text on one line: line breaks (also U+2028/U+2029) become a space. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

export function labelOf(r: RunRecord, id: string): string {
  const o = r.options.find((x) => x.id === id);
  if (!o) return id;
  return o.file.startsWith('runs/') ? `${o.label} (remix ${id})` : `${o.label} ("${id}")`;
}

export function displayPath(p: string): string {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}
