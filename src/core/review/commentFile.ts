/**
 * A member's comment on the brief (`comments/<designer-id>.md`): the text logic behind "Comment on the Brief" — which file,
 * the front matter of a new one, and the selected lines of brief.md quoted with their line numbers so the comment stays
 * anchored to what it is about. Pure functions, plus two helpers that read and write only through the file room.
 */
import { LIMITS, readReviewText, ReviewFileError } from '../files/reviewFiles';
import { writeKindFile } from '../files/writeCaps';
import { DESIGNER_ID_PATTERN, designerIdFromName, sameDesigner } from '../rankings/designerId';
import { formatComment } from './comments';

/** Folder of the members' comments, relative to the review root. */
export const COMMENTS_DIR = 'comments';

/** A comment file is read (to append to it) with the loader's cap of a comment. */
export const COMMENT_APPEND_MAX = LIMITS.comment;

/** `comments/<id>.md`; throws when `id` is not a designer id (the one rule of designerId.ts). */
export function commentRel(id: string): string {
  if (!DESIGNER_ID_PATTERN.test(id))
    throw new Error(`"${id}" is not a designer id (letters, digits, ".", "_", "-"; starting with a letter or digit).`);
  return `${COMMENTS_DIR}/${id}.md`;
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
  if (existing === undefined) {
    // A new file: the loader's own format (front matter with the display name and role), the quote as the first words.
    const text = formatComment({ name: member.name, ...(member.role ? { role: member.role } : {}), body: quote ?? '' });
    await writeKindFile(
      root,
      file,
      'comments',
      quote === undefined
        ? text
        : `${text}
`,
      { exclusive: true },
    );
    return { file, created: true };
  }
  if (quote !== undefined) await writeKindFile(root, file, 'comments', appendQuote(existing, quote));
  return { file, created: false };
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
