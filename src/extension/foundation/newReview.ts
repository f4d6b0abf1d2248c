/**
 * TeamFusion: New Review… — a review folder from the shipped sample or an empty template. Without arguments it asks
 * (template, then folder name under the first workspace folder); tests and scripts pass `{ template, target }`.
 */
import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import * as z from 'zod';
import { scaffoldReview } from '../../core/review/index';
import { resolveInReview } from '../../core/files/reviewFiles';

export const NewReviewArgsSchema = z.object({
  template: z.enum(['sample', 'empty']).optional(),
  /** Absolute folder path, or relative to the first workspace folder. */
  target: z.string().min(1).optional(),
  /** Open brief.md afterwards (default true). */
  open: z.boolean().optional(),
});
export type NewReviewArgs = z.infer<typeof NewReviewArgsSchema>;

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await fs.readdir(dir)).length === 0;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

async function askTemplate(): Promise<'sample' | 'empty' | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      { label: '$(beaker) Sample review', detail: 'Six perfume ad candidates ranked by four designers: try everything at once.', template: 'sample' as const },
      { label: '$(new-folder) Empty review', detail: 'A brief template with empty options/ and rankings/ folders.', template: 'empty' as const },
    ],
    // Two questions in a row: started from the walkthrough, the page takes the focus back between them, which would close
    // the second one.
    { title: 'TeamFusion: New Review', placeHolder: 'Start from…', ignoreFocusOut: true },
  );
  return picked?.template;
}

async function askTarget(template: 'sample' | 'empty'): Promise<string | undefined> {
  let base = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!base) {
    const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Create the review here' });
    base = picked?.[0];
  }
  if (!base) return undefined;
  const baseDir = base.fsPath;
  let suggestion = template === 'sample' ? 'lumen-perfume' : 'new-review';
  for (let i = 2; !(await isEmptyOrMissing(path.join(baseDir, suggestion))) && i < 100; i++) {
    suggestion = `${template === 'sample' ? 'lumen-perfume' : 'new-review'}-${i}`;
  }
  const name = await vscode.window.showInputBox({
    title: 'TeamFusion: New Review',
    prompt: `Folder for the review, inside ${path.basename(baseDir)}`,
    ignoreFocusOut: true,
    value: suggestion,
    validateInput: async (v) => {
      const t = v.trim();
      if (!t) return 'Type a folder name.';
      if (path.isAbsolute(t) || t.split(/[\\/]/).includes('..')) return 'Use a folder name inside the workspace.';
      if (!(await isEmptyOrMissing(path.join(baseDir, t)))) return 'That folder exists and is not empty.';
      return undefined;
    },
  });
  return name ? insideWorkspace(baseDir, name.trim()) : undefined;
}

/**
 * A folder named relative to the workspace, resolved with symbolic links followed: a name that leads outside the
 * workspace folder (through a link) is refused in words, so a new review is never written outside it.
 */
async function insideWorkspace(base: string, rel: string): Promise<string | undefined> {
  try {
    return await resolveInReview(base, rel);
  } catch (e) {
    void vscode.window.showErrorMessage(`New review refused: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** Creates the review; returns its absolute path, or undefined when cancelled or refused (the user was told why). */
export async function newReview(
  extensionUri: vscode.Uri,
  log: vscode.LogOutputChannel,
  arg: unknown,
  reveal: (root: vscode.Uri) => Promise<void>,
): Promise<string | undefined> {
  const parsed = NewReviewArgsSchema.safeParse(arg ?? {});
  const args: NewReviewArgs = parsed.success ? parsed.data : {};
  const template = args.template ?? (await askTemplate());
  if (!template) return undefined;
  let target = args.target;
  if (target && !path.isAbsolute(target)) {
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!ws) {
      void vscode.window.showErrorMessage('Open a folder first: a relative review folder needs a workspace folder.');
      return undefined;
    }
    target = await insideWorkspace(ws, target);
    if (!target) return undefined;
  }
  target ??= await askTarget(template);
  if (!target) return undefined;
  const sampleDir = vscode.Uri.joinPath(extensionUri, 'samples', 'lumen-perfume').fsPath;
  try {
    await scaffoldReview(target, template, sampleDir);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    log.warn(`New review refused: ${why}`);
    void vscode.window.showErrorMessage(why);
    return undefined;
  }
  log.info(`Created a ${template} review in ${target}`);
  const root = vscode.Uri.file(target);
  if (args.open !== false) {
    await vscode.window.showTextDocument(vscode.Uri.joinPath(root, 'brief.md'), { preview: false });
  }
  await reveal(root);
  return target;
}
