/**
 * The human-readable files of a run folder, rewritten after every iteration and at the end:
 * result.md (the deliverable) and transcript.md (the discussion). Plain Markdown that reads well in a git diff:
 * one fact per line, links relative to the run folder (`iteration-1/remix.png`, `../../options/4.png`).
 */
import { typedWords } from '../../authorship/typist';
import { partlyScriptedSentence } from '../../record/endpoints';
import { forkSideText, remixesOf, remixIdsJump, remixNames, remixOfLetter, REMIX_ID_NOTE } from '../../record/remixes';
import { agreementBand } from '../../stats/agreement/kendallW';
import type { Iteration, Message, RunRecord } from '../../record/record';
import { costPerRemix, discussionFacts } from '../runFacts';
import { poolSection } from './poolSection';
import { checklistSection, remixChecksLines } from './checksSection';
import { escapeMarkdown, markdownUrl, writeInertMarkdown } from '../../files/markdown';

export { escapeMarkdown };
const md = escapeMarkdown;
import { reviewRelative, RUNS_DIR } from '../../record/paths';
import { pinnedLines } from '../../people/pins';
import { stanceSentence, stanceTable } from '../../analysis/stance';
import { closeWords, decidedBy, marginText } from '../../discussion/decisionWords';

export interface Person {
  id: string;
  name: string;
  role?: string;
  /** Rank-1 options of their ranking before the run (for the stance table). */
  topChoice?: string[];
  /** A guest of the review (not on the team). */
  guest?: boolean;
}

/**
 * The first lines of every result.md and transcript.md of a scripted run (record.scripted), written by the same function
 * as the rest of the file, so every rewrite (each round, a resume, a refinement) keeps it.
 */
export const SCRIPTED_BANNER =
  "> **Scripted run.** Every answer in this run came from TeamFusion's bundled scripted server (`npm run demo`, " +
  '`npm run scripted-server`), not from a model: it shows the pipeline and the files, not a real discussion.';

/** A scripted run's banner; a partly scripted run's says which parts came from where (endpoints.ts). */
export function scriptedBanner(record: Pick<RunRecord, 'scripted' | 'endpoints'>): string[] {
  if (record.scripted) return [SCRIPTED_BANNER, ''];
  const partly = partlyScriptedSentence(record);
  return partly ? [`> ${partly.replace(/^Partly scripted run:/, '**Partly scripted run.** Of its parts:')}`, ''] : [];
}

/** Writes runs/<id>/result.md and transcript.md inside the review (contained: a symlink out of the review is an error). */
export async function writeDeliverables(reviewRoot: string, record: RunRecord, people: readonly Person[]): Promise<void> {
  await writeInertMarkdown(reviewRoot, reviewRelative(record.id, 'result.md'), resultMarkdown(record, people));
  await writeInertMarkdown(reviewRoot, reviewRelative(record.id, 'transcript.md'), transcriptMarkdown(record, people));
}

/** Link from the run folder to a file given relative to the review root. */
function linkFromRun(record: RunRecord, reviewRelativeFile: string): string {
  const own = `${RUNS_DIR}/${record.id}/`;
  return reviewRelativeFile.startsWith(own) ? reviewRelativeFile.slice(own.length) : `../../${reviewRelativeFile}`;
}

function labelWithId(record: RunRecord, id: string): string {
  const o = record.options.find((x) => x.id === id);
  if (!o) return `"${md(id)}"`;
  if (o.file.startsWith(`${RUNS_DIR}/`)) return `${md(o.label)} (remix ${md(id)})`;
  // "Image 4" is enough when the option is called "4"; otherwise the id is named too.
  return o.label === `Image ${id}` ? md(o.label) : `${md(o.label)} (option "${md(id)}")`;
}

function imageLink(record: RunRecord, id: string): string {
  const o = record.options.find((x) => x.id === id);
  return o ? `[${md(linkFromRun(record, o.file))}](${markdownUrl(linkFromRun(record, o.file))})` : '';
}

function names(people: readonly Person[], ids: readonly string[]): string {
  return ids.map((id) => md(people.find((p) => p.id === id)?.name ?? id)).join(', ');
}

export function resultMarkdown(record: RunRecord, people: readonly Person[]): string {
  const out: string[] = [...scriptedBanner(record), `# TeamFusion run ${record.id}`, ''];
  out.push(`- Status: ${record.status}${record.error ? ` (${md(record.error)})` : ''}`);
  out.push(`- Models: ${md(record.settings.chatModel)} (discussion), ${md(record.settings.imageModel)} (remix)`);
  out.push(
    `- Designers: ${people
      .filter((p) => !p.guest)
      .map((p) => (p.role ? `${md(p.name)} (${md(p.role)})` : md(p.name)))
      .join(', ')}`,
  );
  for (const line of peopleSummary(record, people)) out.push(line);
  if (record.kendallW !== undefined) {
    out.push(`- Team agreement before the run: Kendall's W = ${record.kendallW.toFixed(2)} (${agreementBand(record.kendallW)})`);
  }
  for (const line of consensusLines(record)) out.push(line);
  for (const line of remixKeyLines(record)) out.push(`- ${line}`);
  out.push('');

  out.push('## Final pick', '');
  if (record.finalPick) {
    const o = record.options.find((x) => x.id === record.finalPick);
    out.push(`**${labelWithId(record, record.finalPick)}**`, '');
    if (o) out.push(`![Final pick](${markdownUrl(linkFromRun(record, o.file))})`, '');
    const picked = record.iterations.flatMap((it) => remixesOf(it)).find((m) => m.id === record.finalPick);
    if (picked) out.push(...remixChecksLines(picked, record.checklist, md));
  } else {
    out.push('Not decided yet.', '');
  }
  const last = [...record.iterations].reverse().find((it) => it.final && it.ranking?.length);
  if (last?.ranking) {
    out.push('## Final ranking', '');
    last.ranking.forEach((id, i) => out.push(`${i + 1}. ${labelWithId(record, id)} — ${imageLink(record, id)}`));
    out.push('');
  }

  for (const line of pinsSection(record, people)) out.push(line);
  if (record.checklist) out.push(...checklistSection(record.checklist, md));
  for (const it of record.iterations) for (const line of iterationSection(record, it, people)) out.push(line);
  for (const line of stanceSection(record, people)) out.push(line);

  const u = record.usage;
  out.push('## Usage', '');
  out.push('| input tokens | cached input tokens | output tokens | images | estimated cost |');
  out.push('|---:|---:|---:|---:|---:|');
  const priced = u.costUsd === undefined ? 'unknown (model not in the price table)' : `$${u.costUsd.toFixed(4)}`;
  // A VS Code language model is covered by the user's plan: its tokens are counted, never priced; only image edits cost.
  const cost =
    record.settings.chatProvider === 'vscode' ? `chat covered by your plan (VS Code model)${u.images ? `; images ${priced}` : ''}` : priced;
  out.push(`| ${u.inputTokens} | ${u.cachedInputTokens} | ${u.outputTokens} | ${u.images} | ${cost} |`);
  const perRemix = costPerRemix(record);
  if (perRemix !== undefined) {
    const remixes = record.iterations.reduce((n, it) => n + remixesOf(it).length, 0);
    out.push(
      '',
      `Cost per remixed image (the image edit, at list prices): $${perRemix.toFixed(4)}` +
        (u.costUsd !== undefined && remixes > 0 ? `; whole run ÷ remixes: $${(u.costUsd / remixes).toFixed(4)}` : ''),
    );
  }
  out.push('', '## How the discussion ran', '');
  for (const [k, v] of discussionFacts(record)) out.push(`- ${k}: ${md(v)}`);
  out.push('', `Every prompt sent is recorded in [run.json](run.json); the discussion is in [transcript.md](transcript.md).`, '');
  return out.join('\n');
}

/** Stance kept or yielded (definitions in src/core/analysis/stance.ts), when the remix agent reported what each proxy backed. */
function stanceSection(record: RunRecord, people: readonly Person[]): string[] {
  const withTop = people.filter((p) => p.topChoice);
  if (!record.iterations.some((it) => it.backed) || withTop.length === 0) return [];
  const t = stanceTable(
    record,
    withTop.map((p) => ({ id: p.id, topChoice: p.topChoice! })),
  );
  const label = (id: string | null): string => (id === null ? 'nothing' : labelWithId(record, id));
  const rounds = record.iterations.map((it) => it.index);
  const out = ['## Stance kept or yielded', ''];
  out.push(`| Designer | Top choice before the run | ${rounds.map((r) => `Backed after round ${r}`).join(' | ')} | Moved | Outcome |`);
  out.push(`|---|---|${rounds.map(() => '---|').join('')}---|---|`);
  for (const row of t.rows) {
    const backed = rounds.map((r) => {
      const b = row.backed.find((x) => x.iteration === r);
      return b ? label(b.candidate) : '—';
    });
    const moved = row.movedAt ? `yes: round ${row.movedAt.iteration}${row.movedAt.message ? `, after ${row.movedAt.message}` : ''}` : 'no';
    const outcome =
      row.outcome === 'kept' ? `kept ${label(row.last)}` : row.outcome === 'yielded' ? `yielded to ${label(row.last)}` : 'not reported';
    out.push(
      `| ${names(people, [row.designer])} | ${row.topChoice.map((id) => labelWithId(record, id)).join(', ')} | ${backed.join(' | ')} | ${moved} | ${outcome} |`,
    );
  }
  out.push(
    '',
    stanceSentence(
      t,
      (id) => names(people, [id]),
      (id) => labelWithId(record, id),
    ),
    '',
  );
  return out;
}

function iterationSection(record: RunRecord, it: Iteration, people: readonly Person[]): string[] {
  const out: string[] = [`## Iteration ${it.index}${it.final ? ' (final pick)' : ''}`, ''];
  out.push(`Candidates: ${it.candidates.map((id) => labelWithId(record, id)).join(', ')}`, '');
  out.push(...setAsideLines(record, it));
  if (it.feedback) out.push(`Lead's feedback: ${md(it.feedback)}`, '');
  if (it.ranking) {
    out.push(it.final ? 'Ranking:' : 'Consensus top candidates:', '');
    it.ranking.forEach((id, i) => out.push(`${i + 1}. ${labelWithId(record, id)} — ${imageLink(record, id)}`));
    out.push('');
  }
  if (it.reasons?.length) {
    out.push('Why:', '', ...it.reasons.map((r) => `- ${labelWithId(record, r.candidate)}: ${md(r.reason)}`), '');
  }
  if (it.editingDirections) {
    const inputs = it.remix?.from ?? it.ranking ?? [];
    out.push(
      'Editing directions (as sent to the edit model; ' +
        inputs.map((id, i) => `Image ${i + 1} = ${labelWithId(record, id)}`).join(', ') +
        '):',
      '',
    );
    for (const l of it.editingDirections.split('\n')) out.push(`> ${md(l)}`);
    out.push('');
  }
  // A pooled round's one remix (issue 41) is shown with its proposal below.
  if (it.remix && !it.proposals?.some((p) => p.letter === it.remix?.letter))
    out.push(
      `Remix ${md(it.remix.id)}:`,
      '',
      `![Remix ${md(it.remix.id)}](${markdownUrl(it.remix.file)})`,
      '',
      ...remixChecksLines(it.remix, record.checklist, md),
    );
  if (it.pool) out.push(...poolSection(it.pool, { md, name: (id) => names(people, [id]), label: (id) => labelWithId(record, id) }));
  for (const p of it.proposals ?? []) {
    const made = remixOfLetter(it, p.letter);
    out.push(
      `Remix ${md(made?.id ?? p.letter)}${p.fork ? ` — ${md(forkSideText(p.fork))}` : p.idea ? ` — ${md(p.idea)}` : ''}${made ? '' : ' (not made yet)'}`,
      '',
    );
    out.push(
      'Editing directions (as sent to the edit model; ' +
        p.from.map((id, i) => `Image ${i + 1} = ${labelWithId(record, id)}`).join(', ') +
        '):',
      '',
    );
    for (const l of p.editingDirections.split('\n')) out.push(`> ${md(l)}`);
    out.push('');
    if (made) out.push(`![Remix ${md(made.id)}](${markdownUrl(made.file)})`, '', ...remixChecksLines(made, record.checklist, md));
  }
  if (it.agreements?.length) out.push('Agreements:', '', ...it.agreements.map((a) => `- ${md(a)}`), '');
  if (it.disagreements?.length) out.push('Disagreements:', '', ...it.disagreements.map((a) => `- ${md(a)}`), '');
  if (it.decisionPoints?.length) {
    out.push('Decision points for the lead:', '');
    for (const d of it.decisionPoints) {
      out.push(`- ${md(d.question)}`);
      for (const p of d.positions) out.push(`  - ${md(p.position)} — ${names(people, p.heldBy) || 'nobody named'}`);
    }
    out.push('');
  }
  if (it.decisions?.length) {
    const byTeam = it.decisions.filter((d) => decidedBy(d) === 'the team');
    out.push(
      byTeam.length === 0 ? 'Decided by the lead:' : byTeam.length === it.decisions.length ? 'Decided by the team:' : 'Decided:',
      '',
    );
    out.push(...decisionItems(it.decisions, people), '');
  }
  if (it.error) out.push(`Stopped: ${md(it.error)}`, '');
  return out;
}

/**
 * Who settled each point, one list item each: the lead's proxy, the lead in person, the team's vote with its count, or the
 * lead's close with how many of the team had voted (never "the team's vote": issue 39). Design and brief runs' result.md.
 */
export function decisionItems(decisions: NonNullable<Iteration['decisions']>, people: readonly Person[]): string[] {
  const teamSize = people.filter((p) => !p.guest).length || undefined;
  return decisions.map((d) => {
    const by = decidedBy(d);
    const margin = d.counts ? md(marginText(d).slice(d.decision.length + 2)) : '';
    const who =
      by === 'the team'
        ? `the team's vote${margin ? `, ${margin}` : ''}`
        : by === 'the lead closing the vote'
          ? closeWords(d, teamSize, names(people, [d.by]))
          : `${names(people, [d.by])}${d.via === 'proxy' ? "'s proxy" : ' in person'}`;
    const reopened = d.reopened ? ` — reopened by ${names(people, [d.reopened.by])}, kept as history` : '';
    return `- ${md(d.question)} → **${md(d.decision)}** (${who}${d.reason ? `: ${md(d.reason)}` : ''})${reopened}`;
  });
}

/** "Set aside" (issue 38): the remixes of the sides a decision did not choose, left out of this round and every later one. */
function setAsideLines(record: RunRecord, it: Iteration): string[] {
  if (!it.setAside?.length) return [];
  const lines = it.setAside.map((s) => {
    const fork = remixesOf(record.iterations.find((x) => x.index === s.decidedIn) ?? {}).find((m) => m.id === s.id)?.fork;
    return `- ${labelWithId(record, s.id)}${fork ? ` — "${md(fork.position)}"` : ''}: not the side chosen on ${md(s.question)} (decided in round ${s.decidedIn})`;
  });
  return ['Set aside:', '', ...lines, ''];
}

export function transcriptMarkdown(record: RunRecord, people: readonly Person[]): string {
  const out: string[] = [...scriptedBanner(record), `# Transcript of TeamFusion run ${record.id}`, ''];
  const key = remixKeyLines(record);
  if (key.length > 0) out.push(...key, '');
  for (const it of record.iterations) {
    out.push(`## Iteration ${it.index}${it.final ? (record.task === 'brief' ? ' (last round)' : ' (final pick)') : ''}`, '');
    if (record.task !== 'brief') out.push(`Candidates: ${it.candidates.map((id) => labelWithId(record, id)).join(', ')}`, '');
    if (it.feedback) out.push(`Lead's feedback: ${md(it.feedback)}`, '');
    for (const m of it.messages) out.push(transcriptEntry(m, people), '');
  }
  for (const line of pinsSection(record, people)) out.push(line);
  return out.join('\n');
}

function nameIn(people: readonly Person[], id: string): string {
  return people.find((p) => p.id === id)?.name ?? id;
}

/** One transcript line: a proxy's turn, a person speaking for themself, a guest, each named for what it is. */
export function transcriptEntry(m: Message, people: readonly Person[]): string {
  const name = escapeMarkdown(nameIn(people, m.speaker));
  const asked = m.replyTo ? `, asked by an @mention in ${m.replyTo}` : '';
  if (m.kind === 'human') {
    // Typed on someone else's machine for them (issue 39): said so, never shown as their own.
    const how = m.typedBy !== undefined ? escapeMarkdown(typedWords(m.typedBy, m.speaker, (id) => nameIn(people, id))) : 'in person';
    const when = m.turn === null ? how : `${how}, turn ${m.turn}`;
    if (m.pass) return `**${name}** (${when}) · ${m.id}: passes; the proxy speaks this turn.`;
    const mentions = m.mentions?.length ? ` (asks ${m.mentions.map((id) => escapeMarkdown(nameIn(people, id))).join(', ')} to speak)` : '';
    return `**${name}** (${when}) · ${m.id}: ${escapeMarkdown(m.content)}${mentions}`;
  }
  if (m.kind === 'guest') {
    const role = people.find((p) => p.id === m.speaker)?.role;
    return `**${name}** (guest${role ? `, ${escapeMarkdown(role)}` : ''}${asked}) · ${m.id}: ${md(m.content)}${messageMarks(m)}`;
  }
  const turn = m.turn === null ? `extra turn${asked}` : `turn ${m.turn}${asked}`;
  return `**${name}** (${turn}) · ${m.id}: ${md(m.content)}${messageMarks(m)}`;
}

/** What transcript.md says after a message the engine cut off, or one citing what its round did not show. */
export function messageMarks(m: Pick<Message, 'cut' | 'ungrounded'>): string {
  let out = '';
  if (m.cut) out += " *(cut off: the model's length limit ended this answer)*";
  if (m.ungrounded?.length) out += ` *(cites what this round did not show: ${m.ungrounded.map((c) => escapeMarkdown(c)).join(', ')})*`;
  return out;
}

/** Who took over their proxy and which guests were called in. */
function peopleSummary(record: RunRecord, people: readonly Person[]): string[] {
  const out: string[] = [];
  if (record.settings.humans?.length)
    out.push(`- Speaking in person at their turns: ${record.settings.humans.map((id) => escapeMarkdown(nameIn(people, id))).join(', ')}`);
  // Lines typed on someone else's machine for a member (issue 39): named as such, never as that member's own words.
  const typed = [
    ...new Set(
      record.iterations.flatMap((it) =>
        it.messages
          .filter((m) => m.kind === 'human' && m.typedBy !== undefined)
          .map((m) => typedWords(m.typedBy!, m.speaker, (id) => nameIn(people, id))),
      ),
    ),
  ];
  if (typed.length)
    out.push(`- Lines not in their speaker's own words: ${typed.map((t) => escapeMarkdown(t)).join('; ')} (see transcript.md)`);
  const guests = new Set([
    ...(record.settings.guests ?? []),
    ...record.iterations.flatMap((it) => it.messages.filter((m) => m.kind === 'guest').map((m) => m.speaker)),
  ]);
  if (guests.size)
    out.push(
      `- Guests (not on the team; not counted in any agreement): ${[...guests].map((id) => escapeMarkdown(nameIn(people, id))).join(', ')}`,
    );
  if (record.status === 'waiting' && record.waitingFor) {
    out.push(
      `- Waiting for ${escapeMarkdown(nameIn(people, record.waitingFor.speaker))} (iteration ${record.waitingFor.iteration}, turn ${record.waitingFor.turn})`,
    );
  }
  return out;
}

function pinsSection(record: RunRecord, people: readonly Person[]): string[] {
  const lines = pinnedLines(record, (id) => nameIn(people, id));
  if (!lines.length) return [];
  const how = (l: (typeof lines)[number]): string =>
    l.kind === 'human' ? ` (${l.typed !== undefined ? escapeMarkdown(l.typed) : 'in person'})` : l.kind === 'guest' ? ' (guest)' : '';
  return [
    '## Pinned',
    '',
    ...lines.map(
      (l) =>
        `- Pinned by ${escapeMarkdown(l.by)}: **${escapeMarkdown(l.speaker)}**${how(l)} · ${md(l.message)}: ${escapeMarkdown(l.content)}`,
    ),
    '',
  ];
}

/** The team's own consensus before the run: Borda beside Schulze, and which one the run fell back on. */
function consensusLines(record: RunRecord): string[] {
  const c = record.consensus;
  if (!c) return [];
  const label = (id: string) => labelWithId(record, id);
  const lines = [
    `- Team consensus before the run (their own rankings, weights counted): Borda ${c.borda.map(label).join(', ')}; ` +
      `Schulze ${c.schulze.map((tier) => tier.map(label).join(' = ')).join(', ')}.${c.method === 'schulze' ? ' The remix agent breaks ties by the Schulze order (consensus: schulze).' : ''}`,
  ];
  if (c.sentence) lines.push(`- ${md(c.sentence)}`);
  return lines;
}

/** The discussion calls a remix by its image label; these lines say which remix each is ("Image 7 = remix r1"). */
function remixKeyLines(record: RunRecord): string[] {
  const made = remixNames(record);
  if (made.length === 0) return [];
  const pairs = made.map((r) => `${md(r.label)} = remix ${md(r.id)} (round ${r.round})`);
  return [`Remixes, by the name the discussion uses: ${pairs.join('; ')}.`, ...(remixIdsJump(made) ? [REMIX_ID_NOTE] : [])];
}
