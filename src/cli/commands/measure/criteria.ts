/**
 * `teamfusion criteria <review> [--json] [--force] [--model M]` (issue 34): the criteria the team judges by, each member's
 * stance and each option's standing, every quote checked in the file it names; criteria.json and criteria.md at the review
 * root. A current criteria.json is reused (nothing sent) unless --force. Exit 0 found or reused, 1 refused or failed
 * (an unreadable review or criteria.json, no reasons worth reading, no usable answer), 2 usage, 130 cancelled.
 */
import * as path from 'node:path';
import { CRITERIA_FILE, CriteriaError, findCriteria, type CriteriaFile } from '../../../core/criteria';
import { criteriaFilesOf } from '../../../core/criteria/file';
import { SCRIPTED_SERVER, answeredBy } from '../../../core/llm/scripted';
import { resolveRunSettings } from '../../../core/run/runSettings';
import { loadForCriteria } from '../../../core/criteria/find';
import { UsageError, exactPositionals } from '../../usage';
import { safeJson, writeLine } from '../../output';
import { parseStrict } from '../validate';
import { exitForRefusal, lazyChatBackend, pricesOrSay, withCtrlC } from '../../modelCommand';

const STANCE_SHORT = { values: 'values', against: 'against', 'no-position': '·' } as const;

/** The criteria as a table: one row per criterion (most controversial first), one column per member. */
export function criteriaLines(f: CriteriaFile, names: Record<string, string>, reused: boolean): string[] {
  const ids = Object.keys(names);
  const nameWidth = Math.max(9, ...f.criteria.map((c) => c.name.length));
  const colWidth = (id: string): number => Math.max(id.length, 7);
  const pad = (s: string, n: number): string => s + ' '.repeat(Math.max(0, n - s.length));
  const out = [
    ...(f.scripted
      ? [`Scripted: these criteria came from ${SCRIPTED_SERVER}, not from the team's words; they are kept apart from the team's.`]
      : []),
    `${f.criteria.length} criteri${f.criteria.length === 1 ? 'on' : 'a'} ${f.scripted ? 'the scripted server gave for the team,' : 'the team uses,'} most controversial first (a stance counts only when its quote is in that member's own file):`,
    `  ${pad('criterion', nameWidth)}  controversy  ${ids.map((id) => pad(id, colWidth(id))).join('  ')}`,
  ];
  for (const c of f.criteria) {
    const cells = ids.map((id) => {
      const st = c.stances[id];
      const word = st ? (st.verified === false ? `${STANCE_SHORT[st.claimed ?? st.stance]}?` : STANCE_SHORT[st.stance]) : '·';
      return pad(word, colWidth(id));
    });
    out.push(`  ${pad(c.name, nameWidth)}  ${pad(c.controversy.toFixed(2), 11)}  ${cells.join('  ')}`);
  }
  const unverified = f.criteria.reduce((n, c) => n + Object.values(c.stances).filter((s) => s.verified === false).length, 0);
  if (unverified)
    out.push(`  ? = the model's quote was not found in that member's file, so the stance is not counted (${unverified} in all).`);
  for (const [o, cs] of Object.entries(f.contested ?? {}))
    out.push(`Option ${o} is contested; its supporters and critics split on: ${cs.join(', ')}.`);
  const cost = f.costUsd === undefined ? 'cost unknown (model not in the price table)' : `estimated cost $${f.costUsd.toFixed(4)}`;
  out.push(
    reused
      ? `Reused ${CRITERIA_FILE} (found ${f.at}); nothing sent. --force finds them again.`
      : `${f.requests} request${f.requests === 1 ? '' : 's'} to ${answeredBy(f.model, f.scripted)}, ${cost}. Written: ${criteriaFilesOf(f).json}, ${criteriaFilesOf(f).markdown}`,
  );
  return out;
}

export async function runCriteria(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { json: { type: 'boolean' }, force: { type: 'boolean' }, model: { type: 'string' } });
  const [folder] = exactPositionals(positionals, 1, 'give the review folder, e.g. teamfusion criteria samples/lumen-perfume');
  if (values.model !== undefined && !/^[\w.:/-]{1,200}$/.test(String(values.model))) throw new UsageError('--model needs a model name.');
  const root = path.resolve(folder);
  const prices = await pricesOrSay();
  if (prices === false) return 1;
  try {
    const review = await loadForCriteria(root);
    const model = values.model !== undefined ? String(values.model) : resolveRunSettings(undefined, review.config).chatModel;
    const r = await withCtrlC('nothing is written', (signal) =>
      findCriteria({
        reviewRoot: root,
        // The client is made only when a request is needed: a reused criteria.json or a refusal needs no key.
        chat: lazyChatBackend,
        model,
        force: values.force === true,
        prices,
        signal,
        log: (line) => writeLine(process.stderr, line),
      }),
    );
    for (const n of r.notes) writeLine(process.stderr, n);
    if (values.json === true) process.stdout.write(`${safeJson(r.file)}\n`);
    else for (const line of criteriaLines(r.file, r.names, r.reused)) writeLine(process.stdout, line);
    return 0;
  } catch (err) {
    return exitForRefusal(err, {
      command: 'criteria',
      request: 'The criteria request',
      again: 'try again later',
      own: (e) => e instanceof CriteriaError,
    });
  }
}
