/**
 * A member's comment on the brief (`comments/<designer-id>.md`): the text logic behind "Comment on the Brief" — which file,
 * the front matter of a new one, and the selected lines of brief.md quoted with their line numbers so the comment stays
 * anchored to what it is about. Pure functions, plus two helpers that read and write only through the file room.
 */
import { stringify as yamlStringify } from '../yaml';
import { LIMITS, readReviewText, ReviewFileError, writeReviewFile } from '../files/reviewFiles';
import { DESIGNER_ID_PATTERN, designerIdFromName, sameDesigner } from './designerId';

/** Folder of the members' comments, relative to the review root. */
export const COMMENTS_DIR = 'comments';

/** A comment file is at most this large when "Comment on the Brief" appends to it (the brief's cap: a reading of a brief). */
export const COMMENT_APPEND_MAX = LIMITS.brief;

/** `comments/<id>.md`; throws when `id` is not a designer id (the one rule of designerId.ts). */
export function commentRel(id: string): string {
  if (!DESIGNER_ID_PATTERN.test(id)) throw new Error(`"${id}" is not a designer id (letters, digits, ".", "_", "-"; starting with a letter or digit).`);
  return `${COMMENTS_DIR}/${id}.md`;
}

/** The designer id a comment file's relative path names (`comments/ana.md` → `ana`), if it is one. */
export function commentIdOf(rel: string): string | undefined {
  const m = /^comments\/([^/]+)\.md$/i.exec(rel.replace(/\\/g, '/'));
  return m && DESIGNER_ID_PATTERN.test(m[1] ?? '') ? m[1] : undefined;
}

/** One YAML scalar, quoted when it needs to be ("Ana: Art Director" stays one string). */
function scalar(value: string): string {
  return yamlStringify(value, { lineWidth: 0 }).trimEnd();
}

/** The start of a new comment file: front matter with `designer:` (and `role:` when known), then a blank line. */
export function commentFrontMatter(name: string, role?: string): string {
  const lines = ['---', `designer: ${scalar(name.trim())}`];
  if (role && role.trim()) lines.push(`role: ${scalar(role.trim())}`);
  lines.push('---', '');
  return `${lines.join('\n')}\n`;
}

/** "L3" or "L3–L5" (1-based, inclusive). */
export function lineLabel(startLine: number, endLine: number): string {
  return startLine === endLine ? `L${startLine}` : `L${startLine}–L${endLine}`;
}

/**
 * The selected lines of the brief as a Markdown quote headed by where they are: `> brief.md L3–L5:` then each line
 * after `> ` (an empty line as `>`). Lines are 1-based and inclusive; a range beyond the text is clamped.
 */
export function quoteLines(briefText: string, startLine: number, endLine: number, fileLabel = 'brief.md'): string {
  const lines = briefText.split(/\r?\n/);
  const first = Math.max(1, Math.min(startLine, endLine, lines.length));
  const last = Math.max(first, Math.min(Math.max(startLine, endLine), lines.length));
  const out = [`> ${fileLabel} ${lineLabel(first, last)}:`];
  for (const line of lines.slice(first - 1, last)) out.push(line.trim() === '' ? '>' : `> ${line.replace(/\s+$/, '')}`);
  return `${out.join('\n')}\n`;
}

/** `existing` with `quote` appended after one blank line, and an empty line under it for the member's words. */
export function appendQuote(existing: string, quote: string): string {
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const body = existing.replace(/(\r?\n)*$/, '');
  const block = `${quote.replace(/\n$/, '')}\n\n`.replace(/\n/g, eol);
  return body === '' ? block : `${body}${eol}${eol}${block}`;
}

/**
 * Who is commenting, by default: the member whose id or display name matches `gitUserName` by the one designer-id rule
 * (e.g. git's "Ana Ruiz" → `ana-ruiz`), else the id made from that name, else undefined.
 */
export function defaultMemberId(gitUserName: string | undefined, members: readonly { id: string; name: string }[]): string | undefined {
  const name = gitUserName?.trim();
  if (!name) return undefined;
  const slug = designerIdFromName(name);
  const match = members.find((m) => sameDesigner(m.id, slug) || sameDesigner(m.id, name) || sameDesigner(designerIdFromName(m.name), slug));
  if (match) return match.id;
  return DESIGNER_ID_PATTERN.test(slug) ? slug : undefined;
}

/**
 * Makes sure `comments/<id>.md` exists (front matter with the member's display name when it is new) and appends `quote`
 * when given. Every read and write goes through the file room (contained, regular file, capped). Returns the relative
 * path and whether the file was created.
 */
export async function addToCommentFile(
  root: string,
  id: string,
  member: { name: string; role?: string },
  quote?: string,
): Promise<{ file: string; created: boolean }> {
  const file = commentRel(id);
  let existing: string | undefined;
  try {
    existing = await readReviewText(root, file, COMMENT_APPEND_MAX);
  } catch (err) {
    if (!(err instanceof ReviewFileError && err.reason === 'missing')) throw err;
  }
  const created = existing === undefined;
  const start = existing ?? commentFrontMatter(member.name, member.role);
  if (!created && quote === undefined) return { file, created };
  await writeReviewFile(root, file, quote === undefined ? start : appendQuote(start, quote), created ? { exclusive: true } : {});
  return { file, created };
}

/** The example comment a new brief review starts with (rename it to your own designer id). */
export const EXAMPLE_COMMENT = `---
designer: Example Member       # required: your display name (the file name is your designer id)
role: Copywriter               # optional
# weight: 1                    # optional, > 0
---

> brief.md L1:
> # Brief title

What I think the brief asks for, in my own words.

What matters most to me: …

What is unclear: …

What I would change: …
`;
