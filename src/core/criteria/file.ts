/**
 * criteria.json and criteria.md at the review root (issue 34): written only through the review-file room, read back as
 * their kind (capped, nesting checked, zod), and the JSON's own hash checked, so a hand edit is noticed, said, and the
 * criteria found again.
 */
import * as path from 'node:path';
import { readKindJson } from '../files/kindJson';
import { ReviewFileError } from '../files/reviewFiles';
import type { AuthorshipDoor } from '../authorship/door';
import { reviewAuthorship } from '../review/loadReview';
import { codeSpan, escapeMarkdown, writeInertMarkdown } from '../files/markdown';
import { writeKindFile } from '../files/writeCaps';
import {
  CRITERIA_FILE,
  CRITERIA_MARKDOWN,
  SCRIPTED_CRITERIA_FILE,
  SCRIPTED_CRITERIA_MARKDOWN,
  CriteriaFileSchema,
  contentHash,
  type CriteriaFile,
} from './model';
import { SCRIPTED_SERVER, answeredBy } from '../llm/scripted';

/** criteria.json, or undefined when there is none. Throws ReviewFileError naming the file when it cannot be used. */
export async function readCriteriaFile(root: string): Promise<CriteriaFile | undefined> {
  return readKindJson(root, CRITERIA_FILE, 'criteria', CriteriaFileSchema, 'find the criteria again with --force to replace it');
}

/**
 * Why criteria.json does not count (issue 39, item 3), or undefined when it does: it counts only as its maker — the member
 * who found it, the author of its first commit — committed it, unchanged since (the authorship door's checkMade). `door`:
 * the review's door when the reader has one open; else one is opened.
 */
export async function criteriaNotCounted(root: string, door?: AuthorshipDoor): Promise<string | undefined> {
  const d = door ?? (await reviewAuthorship(root));
  const refused = await d.checkMade(path.join(path.resolve(root), CRITERIA_FILE));
  return refused && `${CRITERIA_FILE} is not counted: ${refused.reason}`;
}

/** readCriteriaFile, refused (ReviewFileError naming the file) when it does not count (criteriaNotCounted). */
export async function readCountedCriteriaFile(root: string): Promise<CriteriaFile | undefined> {
  const file = await readCriteriaFile(root);
  const why = file && (await criteriaNotCounted(root));
  if (why) throw new ReviewFileError(CRITERIA_FILE, why);
  return file;
}

/** Whether the file is as the tool wrote it (its content matches the hash it keeps). */
export function untouched(file: CriteriaFile): boolean {
  return contentHash(file) === file.sha256;
}

/** Where a criteria file goes: criteria.json / .md, or — found against the scripted server — apart from the team's. */
export function criteriaFilesOf(file: Pick<CriteriaFile, 'scripted'>): { json: string; markdown: string } {
  return file.scripted
    ? { json: SCRIPTED_CRITERIA_FILE, markdown: SCRIPTED_CRITERIA_MARKDOWN }
    : { json: CRITERIA_FILE, markdown: CRITERIA_MARKDOWN };
}

export async function writeCriteriaFiles(root: string, file: CriteriaFile, names: Record<string, string>): Promise<void> {
  const to = criteriaFilesOf(file);
  await writeKindFile(root, to.json, 'criteria', `${JSON.stringify(file, null, 2)}\n`);
  await writeInertMarkdown(root, to.markdown, criteriaMarkdown(file, names));
}

const STANCE_WORDS = { values: 'values', against: 'against', 'no-position': '—' } as const;

/** criteria.md: for people, inert (every name, quote and description escaped; no links, no HTML). */
export function criteriaMarkdown(file: CriteriaFile, names: Record<string, string>): string {
  const members = Object.keys(names);
  const cell = (s: string): string => escapeMarkdown(s);
  const out: string[] = [
    ...(file.scripted
      ? [
          "# Scripted criteria (not the team's)",
          '',
          `> These came from ${SCRIPTED_SERVER}: they show the pipeline, not what the team judges by, and nothing reads them as the team's.`,
        ]
      : ["# The team's criteria"]),
    '',
    `Found ${cell(file.at)} by ${cell(answeredBy(file.model, file.scripted))} from the brief and every member's ${file.task === 'design' ? 'justifications' : 'comments'}. ` +
      "A stance counts only when its quote was found in that member's own file; controversy = (v + a) / n × (1 − |v − a| / (v + a)), " +
      "with n the team's size and v, a the members who value or are against the criterion.",
    '',
    `| criterion | controversy | ${members.map((m) => cell(names[m] ?? m)).join(' | ')} |`,
    `| --- | --- | ${members.map(() => '---').join(' | ')} |`,
  ];
  for (const c of file.criteria) {
    const stances = members.map((m) => {
      const st = c.stances[m];
      if (!st) return '—';
      return st.verified === false ? `${STANCE_WORDS[st.stance]} (quote not found)` : STANCE_WORDS[st.stance];
    });
    out.push(`| ${cell(c.name)} | ${c.controversy.toFixed(2)} | ${stances.join(' | ')} |`);
  }
  out.push('');
  for (const c of file.criteria) {
    out.push(`## ${cell(c.name)}`, '', cell(c.description), '');
    for (const m of members) {
      const st = c.stances[m];
      if (!st?.quote) continue;
      const mark = st.verified ? '' : ` — not counted: the quote was not found (claimed: ${st.claimed ?? st.stance})`;
      out.push(`- ${cell(names[m] ?? m)}, ${STANCE_WORDS[st.stance]}: “${cell(st.quote)}” (${codeSpan(st.file ?? '')})${mark}`);
    }
    for (const [o, st] of Object.entries(c.options ?? {})) {
      if (st.standing === 'not-mentioned' && !st.quote) continue;
      const mark = st.verified ? '' : ' — not counted: the quote was not found';
      out.push(`- Option ${cell(o)}: ${st.standing}${st.quote ? `, “${cell(st.quote)}” (${codeSpan(st.file ?? '')})` : ''}${mark}`);
    }
    out.push('');
  }
  const contested = Object.entries(file.contested ?? {});
  if (contested.length) {
    out.push('## Where the contested options split the team', '');
    for (const [o, cs] of contested) out.push(`- Option ${cell(o)}: ${cs.map(cell).join(', ')}`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
