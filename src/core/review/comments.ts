/**
 * comments/<designer-id>.md — a brief review's input (issue 17): one member's own reading of the brief, as Markdown with
 * YAML front matter (`designer:` display name, required; `role`, `weight` optional, as in ranking files). Every file is read
 * through the file room (contained, regular file, LIMITS.comment); the front matter is checked field by field with the
 * ranking file's zod schemas, and its diagnostics carry line:col of the file (not of the front matter alone).
 */
import { isMap, isScalar, parseYamlDocument, type YamlDocument } from '../kernel/yaml';
import type { Node, Pair, YAMLMap } from 'yaml';
import { LIMITS, listInReview, ReviewFileError, statInReview } from '../files/reviewFiles';
import { checkNesting } from '../files/nesting';
import type { DesignerComment } from './model';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { capPerFile, error, sortDiagnostics, warning } from '../diagnostics/diagnostics';
import { designerKey, filesForOneId, MAX_MEMBERS, oneIdTwiceMessage, tooManyMembersMessage } from '../rankings/designerId';
import { OnePersonOneFile } from './samePerson';
import { designerField, roleField, weightField } from '../rankings/rankingFields';
import { naturalCompare } from '../kernel/naturalOrder';
import { readTextFile } from '../files/textFile';
import { closestId } from '../rankings/suggest';

export const COMMENT_FIELDS = ['designer', 'role', 'weight'] as const;
const COMMENT_EXT = /\.md$/i;

/** "comments/ana.md" → "ana". */
export function commentDesignerId(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(COMMENT_EXT, '');
}

/** A new comment file's text: front matter with the display name (and role), then the body. */
export function formatComment(c: { name: string; role?: string; body: string }): string {
  const lines = ['---', `designer: ${JSON.stringify(c.name)}`];
  if (c.role) lines.push(`role: ${JSON.stringify(c.role)}`);
  lines.push('---', '', c.body.replace(/\s*$/, ''), '');
  return lines.join('\n');
}

interface Pos {
  line: number;
  column: number;
}

/** What a comment's front matter states itself (review.yaml `team` fills in the rest) and where its name is. */
export interface CommentStated {
  role: boolean;
  weight: boolean;
  designerAt: Pos;
}

function keyName(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/** Splits `---\n<yaml>\n---\n<body>`; undefined when the file does not start with a front matter block. */
export function splitFrontMatter(text: string): { yaml: string; body: string; bodyLine: number } | undefined {
  const t = text.replace(/^\uFEFF/, '');
  const lines = t.split('\n');
  if (lines[0]?.replace(/\r$/, '').trimEnd() !== '---') return undefined;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!.replace(/\r$/, '').trimEnd();
    if (l === '---' || l === '...') {
      return { yaml: lines.slice(1, i).join('\n'), body: lines.slice(i + 1).join('\n'), bodyLine: i + 2 };
    }
  }
  return undefined;
}

/** One comment file's text → a DesignerComment, or diagnostics with the file's own line:col. */
export function checkCommentText(
  text: string,
  file: string,
): { comment?: DesignerComment; diagnostics: Diagnostic[]; stated: CommentStated } {
  const diagnostics: Diagnostic[] = [];
  const stated: CommentStated = { role: false, weight: false, designerAt: { line: 1, column: 1 } };
  const bad = (message: string, at?: Pos): void => void diagnostics.push(error(file, message, at?.line ?? 0, at?.column ?? 0));
  const warn = (message: string, at?: Pos): void => void diagnostics.push(warning(file, message, at?.line ?? 0, at?.column ?? 0));
  const done = () => ({ diagnostics: capPerFile(sortDiagnostics(diagnostics)), stated });

  if (text.replace(/^\uFEFF/, '').trim() === '') {
    bad('The comment is empty. Start it with front matter (---, designer: Your Name, ---), then write your reading of the brief.', {
      line: 1,
      column: 1,
    });
    return done();
  }
  const split = splitFrontMatter(text);
  if (!split) {
    bad(
      'The comment has no front matter. Start the file with a line ---, then designer: Your Name, then another line ---, and write the comment below it.',
      { line: 1, column: 1 },
    );
    return done();
  }
  // The front matter starts on line 2 of the file: every position is shifted by one line.
  const shift = (p: Pos): Pos => ({ line: p.line + 1, column: p.column });
  const deep = checkNesting(split.yaml);
  if (deep) {
    bad(deep.message, shift(deep));
    return done();
  }
  let parsed: YamlDocument;
  try {
    parsed = parseYamlDocument(split.yaml);
  } catch {
    bad('The front matter could not be read as YAML.', { line: 2, column: 1 });
    return done();
  }
  const { doc, at, firstError } = parsed;
  const posOfOffset = (offset: number): Pos => shift(at(offset));
  const posOf = (node: Node | Pair | null | undefined, fallback: Pos): Pos => {
    const n = node && 'range' in node ? node : node && 'key' in node ? (node.key as Node | null) : undefined;
    const range = n && 'range' in n ? n.range : undefined;
    return range ? posOfOffset(range[0]) : fallback;
  };
  const top: Pos = { line: 1, column: 1 };
  if (firstError) {
    bad(`The front matter is not valid YAML: ${firstError.problem}`, shift(firstError));
    return done();
  }
  const root = doc.contents;
  if (!isMap(root)) {
    bad('The front matter has no designer: field. Add a line like designer: Ana Ruiz between the two --- lines.', top);
    return done();
  }
  let data: Record<string, unknown>;
  try {
    const js: unknown = doc.toJS({ maxAliasCount: 100 });
    data = typeof js === 'object' && js !== null ? (js as Record<string, unknown>) : {};
  } catch {
    bad('The front matter uses a YAML alias (*name) that cannot be read; write the value out instead.', top);
    return done();
  }
  const map = root as YAMLMap;
  const pairOf = (key: string): Pair | undefined => map.items.find((p) => keyName(p) === key);
  warnUnknownFields(map, (pair) => posOf(pair, top), warn);
  const check = <T>(
    schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } },
    value: unknown,
    at: Pos,
  ): T | undefined => {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    bad(r.error.issues[0]?.message ?? 'This value is not valid.', at);
    return undefined;
  };

  const designerPair = pairOf('designer');
  let name: string | undefined;
  if (!designerPair)
    bad('The designer field is missing. Add a line like designer: Ana Ruiz (the name shown to the team) to the front matter.', {
      line: 2,
      column: 1,
    });
  else {
    stated.designerAt = posOf(designerPair.value as Node, posOf(designerPair, top));
    name = check<string>(designerField, data.designer, stated.designerAt)?.trim();
  }

  let role: string | undefined;
  const rolePair = pairOf('role');
  if (rolePair) {
    stated.role = data.role !== null;
    if (data.role === null) warn('The role is empty and is ignored; fill it in or remove the line.', posOf(rolePair, top));
    else role = check<string>(roleField, data.role, posOf(rolePair.value as Node, posOf(rolePair, top)))?.trim() || undefined;
  }
  let weight = 1;
  const weightPair = pairOf('weight');
  if (weightPair) {
    stated.weight = data.weight !== null;
    if (data.weight === null)
      warn('The weight is empty, so the default weight 1 is used; fill it in or remove the line.', posOf(weightPair, top));
    else weight = check<number>(weightField, data.weight, posOf(weightPair.value as Node, posOf(weightPair, top))) ?? weight;
  }

  const body = commentBody(split, bad);
  if (diagnostics.some((d) => d.severity === 'error') || name === undefined) return done();
  const comment: DesignerComment = { designer: commentDesignerId(file), name, weight, body, file };
  if (role !== undefined) comment.role = role;
  return { comment, ...done() };
}

/**
 * comments/: every `<designer-id>.md` checked (the one designer-id rule, as for rankings: two files for one id is an
 * error). Undefined `comments` when the folder is missing.
 */
export async function loadComments(
  root: string,
): Promise<{ comments?: DesignerComment[]; stated: Map<string, CommentStated>; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const stated = new Map<string, CommentStated>();
  let st;
  try {
    st = await statInReview(root, 'comments');
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    return { diagnostics: [error(err.file || 'comments', err.message)], stated };
  }
  if (!st) return { diagnostics, stated };
  if (!st.isDirectory())
    return {
      diagnostics: [error('comments', 'comments is a file, but it must be a folder with one <designer-id>.md per member.')],
      stated,
    };
  let names: string[];
  try {
    names = ((await listInReview(root, 'comments')) ?? []).sort(naturalCompare);
  } catch {
    return { diagnostics: [error('comments', 'The comments/ folder could not be read (permission denied?).')], stated };
  }
  const count = names.filter((n) => !n.startsWith('.') && COMMENT_EXT.test(n)).length;
  // Still a brief review (comments: []): the folder's one error stands alone, without "options/ is missing" after it.
  if (count > MAX_MEMBERS) return { comments: [], diagnostics: [error('comments', tooManyMembersMessage('comments', count))], stated };
  const comments: DesignerComment[] = [];
  const seen = new Map<string, string>();
  const people = new OnePersonOneFile('comment');
  const twice = filesForOneId(
    names.filter((n) => !n.startsWith('.') && COMMENT_EXT.test(n)).map((n) => `comments/${n}`),
    (rel) => commentDesignerId(rel.slice('comments/'.length)),
  );
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const rel = `comments/${name}`;
    if (!COMMENT_EXT.test(name)) {
      const s = await statInReview(root, rel).catch(() => undefined);
      diagnostics.push(
        warning(
          rel,
          s?.isDirectory()
            ? `The folder ${rel} is ignored; comments/ holds one <designer-id>.md per member.`
            : `${rel} is not a .md comment file and is ignored.`,
        ),
      );
      continue;
    }
    const id = commentDesignerId(name);
    const others = twice.get(rel);
    if (others) {
      diagnostics.push(error(rel, oneIdTwiceMessage(rel, others, id)));
      continue;
    }
    seen.set(designerKey(id), name);
    const read = await readTextFile(root, rel, { label: 'comment on the brief', allowEmpty: true, maxBytes: LIMITS.comment });
    if (!read.ok) {
      diagnostics.push(read.diagnostic);
      continue;
    }
    const checked = checkCommentText(read.text, rel);
    for (const d of checked.diagnostics) diagnostics.push(d);
    const samePerson = checked.comment && people.add(rel, checked.comment.name, read.text);
    if (samePerson) diagnostics.push(samePerson);
    else if (checked.comment) {
      comments.push(checked.comment);
      stated.set(checked.comment.designer, checked.stated);
    }
  }
  comments.sort((a, b) => naturalCompare(a.designer, b.designer));
  return { comments, stated, diagnostics };
}

/** Warns of each front-matter field a comment does not have (with the closest one it does). */
function warnUnknownFields(map: YAMLMap, posOf: (pair: Pair) => Pos, warn: (message: string, at?: Pos) => void): void {
  for (const pair of map.items) {
    const name = keyName(pair);
    if ((COMMENT_FIELDS as readonly string[]).includes(name)) continue;
    const guess = closestId(name, COMMENT_FIELDS);
    warn(
      `Unknown field "${name}" is ignored.${guess ? ` Did you mean "${guess}"?` : ''} A comment's front matter has designer, role and weight.`,
      posOf(pair),
    );
  }
}

/** The comment's text below the front matter (trimmed); an empty one is reported. */
function commentBody(split: { body: string; bodyLine: number }, bad: (message: string, at?: Pos) => void): string {
  const body = split.body.replace(/\r\n/g, '\n').trim();
  if (body === '') {
    bad(
      'The comment has no text below the front matter. Write your reading of the brief there: what it asks for, what matters most to you, what is unclear, what you would change.',
      { line: split.bodyLine, column: 1 },
    );
  }
  return body;
}
