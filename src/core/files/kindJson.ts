/**
 * A JSON file the tool wrote and reads back as untrusted input (analysis.json, judge.json): read as its kind (contained,
 * capped, nesting checked), parsed, checked with zod; a problem is one `file:line:col: error:` sentence ending with what
 * to do (`again`), thrown as ReviewFileError. A missing file is undefined.
 */
import type * as z from 'zod';
import { lineColAt, locateJsonValue } from '../diagnostics/jsonLocate';
import { zodSentence } from '../kernel/zodText';
import { readKindText, type FileKindName } from './fileKinds';
import { ReviewFileError } from './reviewFiles';
import { errorMessage } from '../kernel/errors';

export async function readKindJson<T extends z.ZodType>(
  root: string,
  rel: string,
  kind: FileKindName,
  schema: T,
  again: string,
): Promise<z.infer<T> | undefined> {
  let text: string;
  try {
    text = await readKindText(root, rel, kind);
  } catch (err) {
    if (err instanceof ReviewFileError && err.reason === 'missing') return undefined;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ReviewFileError(rel, `${rel}:1:1: error: not valid JSON (${errorMessage(err)}); ${again}.`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = lineColAt(
      text,
      locateJsonValue(
        text,
        issue.path.filter((p): p is string | number => typeof p !== 'symbol'),
      ),
    );
    throw new ReviewFileError(
      rel,
      `${rel}:${at.line}:${at.column}: error: ${zodSentence(parsed.error, 'the file').replace(/\.$/, '')}; ${again}.`,
    );
  }
  return parsed.data;
}
