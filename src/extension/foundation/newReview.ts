/**
 * TeamFusion: New Review… — a design review (the shipped sample or an empty template) or a brief review (brief.md and
 * comments/ with an example comment). Without arguments it asks (kind, template, then folder name under the first
 * workspace folder); tests and scripts pass `{ kind, template, target }`.
 */
import * as path from 'node:path';
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import * as z from 'zod';
import { scaffoldReview, type ReviewTemplate } from '../../core/review/index';
import { resolveInReview } from '../../core/files/reviewFiles';
import { errorMessage } from '../../core/kernel/errors';
import type { RunTaskKind } from '../../core/record/record';

export const NewReviewArgsSchema = z.object({
  /** A design review (options ranked by the team) or a brief review (the members' comments on the brief). */
  kind: z.enum(['design', 'brief']).optional(),
  /** `brief` is the brief review's template (the same as `kind: 'brief'`). */
  template: z.enum(['sample', 'empty', 'brief']).optional(),
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

/** One question: a design review (the sample or an empty one) or a brief review. */
async function askTemplate(kind?: RunTaskKind): Promise<ReviewTemplate | undefined> {
  if (kind === 'brief') return 'brief';
  type Item = vscode.QuickPickItem & { template?: ReviewTemplate };
  const design: Item[] = [
    { label: 'Design review', kind: vscode.QuickPickItemKind.Separator },
    {
      label: '$(beaker) Sample review',
      detail: 'Six perfume ad candidates ranked by four designers: try everything at once.',
      template: 'sample',
    },
    { label: '$(new-folder) Empty review', detail: 'A brief template with empty options/ and rankings/ folders.', template: 'empty' },
  ];
  const brief: Item[] = [
    { label: 'Brief review', kind: vscode.QuickPickItemKind.Separator },
    {
      label: '$(book) Brief review',
      detail: "brief.md and comments/: each member's reading of the brief becomes one revised brief that keeps every voice.",
      template: 'brief',
    },
  ];
  const picked = await vscode.window.showQuickPick(
    kind === 'design' ? design : [...design, ...brief],
    // Two questions in a row: started from the walkthrough, the page takes the focus back between them, which would close
    // the second one.
    { title: 'TeamFusion: New Review', placeHolder: 'Start from…', ignoreFocusOut: true },
  );
  return picked?.template;
}

async function askTarget(template: ReviewTemplate): Promise<string | undefined> {
  let base = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!base) {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      openLabel: 'Create the review here',
    });
    base = picked?.[0];
  }
  if (!base) return undefined;
  const baseDir = base.fsPath;
  const stem = template === 'sample' ? 'lumen-perfume' : template === 'brief' ? 'brief-review' : 'new-review';
  let suggestion = stem;
  for (let i = 2; !(await isEmptyOrMissing(path.join(baseDir, suggestion))) && i < 100; i++) {
    suggestion = `${stem}-${i}`;
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
    void vscode.window.showErrorMessage(`New review refused: ${errorMessage(e)}`);
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
  const template: ReviewTemplate | undefined = args.template ?? (await askTemplate(args.kind));
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
    const why = errorMessage(e);
    log.warn(`New review refused: ${why}`);
    void vscode.window.showErrorMessage(why);
    return undefined;
  }
  log.info(`Created a ${template} review in ${target}`);
  const root = vscode.Uri.file(target);
  if (args.open !== false) {
    await vscode.window.showTextDocument(vscode.Uri.joinPath(root, 'brief.md'), { preview: false });
  }
  if (template === 'brief') {
    void vscode.window.showInformationMessage(
      'Brief review created. Write the brief in brief.md; each member adds their reading with "Comment on the Brief" (comments/example-member.md shows the format: rename or delete it).',
    );
  }
  await reveal(root);
  return target;
}
