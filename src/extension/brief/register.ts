/**
 * The brief review in VS Code (issue 17): "Comment on the Brief" (a member's own comments/<id>.md beside brief.md, the
 * selected lines quoted with their line numbers), "Run Brief Review", "Show Changes of the Revised Brief" (VS Code's diff
 * editor between brief.md and a round's revised brief) and "Adopt Revised Brief" (writes it to brief.md after a modal
 * confirmation). Every write goes through the one write guard (Workspace Trust) and the file room.
 * Each command accepts an optional argument object so tests and scripts can drive it without UI.
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod';
import { COMMANDS } from '../commandIds';
import { guardCommand, guardWriteCommand } from '../commandGuard';
import type { Services } from '../services';
import { LIMITS, readReviewText, resolveInReview } from '../../core/files/reviewFiles';
import { writeReviewFile } from '../../core/files/reviewWrites';
import { addToCommentFile, commentRel, defaultMemberId, quoteLines } from '../../core/review/commentFile';
import { DESIGNER_ID_PATTERN, designerIdFromName, sameDesigner } from '../../core/rankings/designerId';
import { listRunEntries } from '../../core/record/store';
import { readReviewContents } from '../foundation/reviewContents';
import { toUri } from '../foundation/reviewIndex';
import { briefRunState, isBriefRun, type BriefRecordLike } from '../panel/state/briefState';
import type { PanelBriefRound } from '../../protocol/brief';

/** workspaceState key: the designer id the person commenting in this workspace chose last. */
const COMMENT_AS_KEY = 'teamfusion.commentAs';

const CommentArgsSchema = z.object({
  /** brief.md of the review (a path or a Uri string); the active editor's file when absent. */
  uri: z.string().optional(),
  /** Designer id of the member commenting (asked, remembered per workspace, when absent). */
  as: z.string().optional(),
  /** Display name for a new comment file (defaults to the member's name from their ranking, or the id). */
  name: z.string().optional(),
  /** 1-based, inclusive; the editor's selection when absent. */
  startLine: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
});

const RoundArgsSchema = z.object({
  reviewRoot: z.string().min(1),
  runId: z.string().min(1),
  iteration: z.number().int().positive().optional(),
  /** Adopt only: skip the modal confirmation (scripts and tests that confirmed otherwise). */
  confirmed: z.boolean().optional(),
});
type RoundArgs = z.infer<typeof RoundArgsSchema>;

interface Member {
  id: string;
  name: string;
  role?: string;
  from: 'comment' | 'ranking';
}

function gitUserName(cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['config', 'user.name'], { cwd, timeout: 3000, windowsHide: true }, (err, stdout) => {
      resolve(err ? undefined : stdout.trim() || undefined);
    });
  });
}

async function membersOf(root: string): Promise<Member[]> {
  const c = await readReviewContents(root);
  const out: Member[] = c.comments.map((m) => ({ id: m.id, name: m.name, ...(m.role ? { role: m.role } : {}), from: 'comment' as const }));
  for (const d of c.designers) {
    if (!out.some((m) => sameDesigner(m.id, d.id)))
      out.push({ id: d.id, name: d.name, ...(d.role ? { role: d.role } : {}), from: 'ranking' });
  }
  return out;
}

/** Asks which member is commenting: the remembered one or git's user.name first; "Someone else…" makes a new id. */
async function askMember(root: string, members: Member[], remembered: string | undefined): Promise<Member | undefined> {
  const gitDefault = defaultMemberId(await gitUserName(root), members);
  const preferred = remembered ?? gitDefault;
  type Item = vscode.QuickPickItem & { member?: Member; other?: boolean };
  const sorted = [...members].sort(
    (a, b) =>
      Number(preferred !== undefined && sameDesigner(b.id, preferred)) - Number(preferred !== undefined && sameDesigner(a.id, preferred)),
  );
  const items: Item[] = sorted.map((m) => ({
    label: m.name,
    description: [m.id, m.role, m.from === 'comment' ? 'has a comment' : 'ranked the options'].filter(Boolean).join(' · '),
    ...(preferred !== undefined && sameDesigner(m.id, preferred)
      ? { detail: remembered ? 'You, last time in this workspace' : 'You, from git user.name' }
      : {}),
    member: m,
  }));
  if (gitDefault && !members.some((m) => sameDesigner(m.id, gitDefault))) {
    items.unshift({
      label: gitDefault,
      description: 'new comment file',
      detail: 'You, from git user.name',
      member: { id: gitDefault, name: (await gitUserName(root)) ?? gitDefault, from: 'comment' },
    });
  }
  items.push({ label: '$(add) Someone else…', description: 'a member not listed', other: true });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'TeamFusion: Comment on the Brief',
    placeHolder: 'Which member are you?',
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  if (!picked.other) return picked.member;
  const name = await vscode.window.showInputBox({
    title: 'TeamFusion: Comment on the Brief',
    prompt: 'Your name as the team knows it (your comment file is comments/<id>.md, the id made from the name).',
    ignoreFocusOut: true,
    validateInput: (v) => (DESIGNER_ID_PATTERN.test(designerIdFromName(v)) ? undefined : 'Type a name with letters or digits.'),
  });
  if (!name?.trim()) return undefined;
  const id = designerIdFromName(name);
  return members.find((m) => sameDesigner(m.id, id)) ?? { id, name: name.trim(), from: 'comment' };
}

/** The lines to quote: the selection (a selection ending at column 0 leaves that line out), else the cursor's line. */
function selectedLines(editor: vscode.TextEditor | undefined): [number, number] | undefined {
  if (!editor) return undefined;
  const sel = editor.selection;
  let end = sel.end.line;
  if (!sel.isEmpty && sel.end.character === 0 && end > sel.start.line) end--;
  return [sel.start.line + 1, end + 1];
}

async function commentOnBrief(services: Services, arg: unknown): Promise<string | undefined> {
  const parsed = CommentArgsSchema.safeParse(arg instanceof vscode.Uri || arg === undefined ? {} : arg);
  const a = parsed.success ? parsed.data : {};
  const editor = vscode.window.activeTextEditor;
  // The lines selected when the command was invoked: what the person meant, whatever happens in the editor while they pick
  // who they are (the picker stays open when focus leaves it, so a click in the brief could move the cursor meanwhile).
  const invokedLines = selectedLines(editor);
  const briefUri = (a.uri ? toUri(a.uri) : undefined) ?? (arg instanceof vscode.Uri ? arg : undefined) ?? editor?.document.uri;
  const root = briefUri ? await services.reviews.reviewOf(briefUri) : undefined;
  if (!briefUri || !root || path.resolve(briefUri.fsPath) !== path.resolve(root.fsPath, 'brief.md')) {
    void vscode.window.showInformationMessage('Comment on the Brief works on the brief.md of a review: open it first.');
    return undefined;
  }
  const members = await membersOf(root.fsPath);
  const remembered = services.context.workspaceState.get<string>(COMMENT_AS_KEY);
  let member: Member | undefined;
  if (a.as !== undefined) {
    if (!DESIGNER_ID_PATTERN.test(a.as)) {
      void vscode.window.showErrorMessage(`Comment on the Brief: "${a.as}" is not a designer id.`);
      return undefined;
    }
    member = members.find((m) => sameDesigner(m.id, a.as ?? '')) ?? { id: a.as, name: a.name ?? a.as, from: 'comment' };
  } else {
    member = await askMember(root.fsPath, members, remembered);
  }
  if (!member) return undefined;
  await services.context.workspaceState.update(COMMENT_AS_KEY, member.id);

  // The brief as the person sees it (an open editor may hold unsaved lines; their numbers are what they selected).
  const briefDoc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === briefUri.toString());
  const briefText = briefDoc ? briefDoc.getText() : await readReviewText(root.fsPath, 'brief.md', LIMITS.brief);
  const lines: [number, number] | undefined =
    a.startLine !== undefined
      ? [a.startLine, a.endLine ?? a.startLine]
      : editor && editor.document.uri.toString() === briefUri.toString()
        ? invokedLines
        : undefined;
  const quote = lines ? quoteLines(briefText, lines[0], lines[1]) : undefined;

  const rel = commentRel(member.id);
  const commentUri = vscode.Uri.file(await resolveInReview(root.fsPath, rel));
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === commentUri.toString());
  if (open?.isDirty && quote) {
    // Unsaved words of the member in the editor: add the quote there (they save it), never write under them.
    const edit = new vscode.WorkspaceEdit();
    const last = open.lineAt(open.lineCount - 1);
    const sep = open.getText().trimEnd() === '' ? '' : open.getText().endsWith('\n\n') ? '' : open.getText().endsWith('\n') ? '\n' : '\n\n';
    edit.insert(open.uri, last.range.end, `${sep}${quote}\n`);
    await vscode.workspace.applyEdit(edit);
  } else {
    const { created } = await addToCommentFile(
      root.fsPath,
      member.id,
      { name: member.name, ...(member.role ? { role: member.role } : {}) },
      quote,
    );
    services.log.info(
      `${created ? 'Created' : 'Added to'} ${rel} (${member.name})${lines ? `, quoting brief.md lines ${lines[0]}–${lines[1]}` : ''}.`,
    );
  }
  const shown = await vscode.window.showTextDocument(commentUri, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  const end = shown.document.lineAt(shown.document.lineCount - 1).range.end;
  shown.selection = new vscode.Selection(end, end);
  shown.revealRange(new vscode.Range(end, end));
  services.reviews.invalidate();
  return rel;
}

/** The rounds of a brief run (with their revised brief's text), or undefined after saying why in words. */
async function roundsOf(root: string, runId: string, log: vscode.LogOutputChannel): Promise<PanelBriefRound[] | undefined> {
  const entries = await listRunEntries(root);
  const record = entries.find((e) => e.id === runId)?.record;
  if (!record) {
    void vscode.window.showWarningMessage(`There is no usable run ${runId} in this review.`);
    return undefined;
  }
  const like: BriefRecordLike = record;
  if (!isBriefRun(like)) {
    void vscode.window.showInformationMessage(`Run ${runId} is a design run: it has no revised brief.`);
    return undefined;
  }
  const state = await briefRunState(root, like, (line) => log.warn(line));
  const rounds = (state?.rounds ?? []).filter((r) => r.text !== undefined);
  if (rounds.length === 0) {
    void vscode.window.showInformationMessage(`Run ${runId} has no revised brief yet.`);
    return undefined;
  }
  return rounds;
}

/** The round named by the argument, else the only one, else a quick pick of rounds (newest first). */
async function pickRound(rounds: PanelBriefRound[], iteration: number | undefined, title: string): Promise<PanelBriefRound | undefined> {
  if (iteration !== undefined) {
    const r = rounds.find((x) => x.iteration === iteration);
    if (!r) void vscode.window.showWarningMessage(`This run has no revised brief of round ${iteration}.`);
    return r;
  }
  if (rounds.length === 1) return rounds[0];
  const items = [...rounds].reverse().map((r, i) => ({
    label: `Round ${r.iteration}${i === 0 ? ' (latest)' : ''}`,
    description: r.path,
    detail: `${r.coverage.filter((c) => c.status === 'left-out').length} point(s) left out · ${r.agreements.length} agreement(s) · ${r.openQuestions.length} open question(s)`,
    round: r,
  }));
  return (await vscode.window.showQuickPick(items, { title, placeHolder: "Which round's revised brief?" }))?.round;
}

async function roundArgs(services: Services, arg: unknown, title: string): Promise<{ a: RoundArgs; round: PanelBriefRound } | undefined> {
  const parsed = RoundArgsSchema.safeParse(arg);
  let a: RoundArgs;
  if (parsed.success) a = parsed.data;
  else {
    const uri = await services.reviews.resolve(arg);
    if (!uri) return undefined;
    const briefRuns = (await listRunEntries(uri.fsPath)).flatMap((e) => (e.record && isBriefRun(e.record) ? [e.record] : []));
    const pickedRun =
      briefRuns.length <= 1
        ? briefRuns[0]
        : (
            await vscode.window.showQuickPick(
              briefRuns.map((r) => ({ label: r.id, description: r.status, record: r })),
              { title, placeHolder: 'Which brief run?' },
            )
          )?.record;
    if (!pickedRun) {
      if (briefRuns.length === 0) void vscode.window.showInformationMessage('This review has no brief run yet.');
      return undefined;
    }
    a = { reviewRoot: uri.fsPath, runId: pickedRun.id };
  }
  const rounds = await roundsOf(a.reviewRoot, a.runId, services.log);
  if (!rounds) return undefined;
  const round = await pickRound(rounds, a.iteration, title);
  return round ? { a, round } : undefined;
}

async function showChanges(services: Services, arg: unknown): Promise<string | undefined> {
  const got = await roundArgs(services, arg, 'TeamFusion: Show Changes of the Revised Brief');
  if (!got) return undefined;
  const { a, round } = got;
  // Both sides contained in the review (symbolic links followed): the diff never shows a file outside it.
  const left = vscode.Uri.file(await resolveInReview(a.reviewRoot, 'brief.md'));
  const right = vscode.Uri.file(await resolveInReview(a.reviewRoot, round.path));
  await vscode.commands.executeCommand('vscode.diff', left, right, `brief.md ↔ revised brief (${a.runId}, round ${round.iteration})`, {
    preview: false,
  });
  return round.path;
}

async function adopt(services: Services, arg: unknown): Promise<boolean> {
  const got = await roundArgs(services, arg, 'TeamFusion: Adopt Revised Brief');
  if (!got) return false;
  const { a, round } = got;
  if (!a.confirmed) {
    const ok = 'Adopt';
    const choice = await vscode.window.showWarningMessage(
      `Replace brief.md with the revised brief of round ${round.iteration} (${a.runId})?`,
      { modal: true, detail: "brief.md is overwritten; the old text stays in git (commit it with the run) and in the run's records." },
      ok,
    );
    if (choice !== ok) return false;
  }
  // Read again at the moment of writing (the round's file through the file room, capped like a brief).
  const text = await readReviewText(a.reviewRoot, round.path, LIMITS.brief);
  await writeReviewFile(a.reviewRoot, 'brief.md', text);
  services.log.info(`brief.md replaced by the revised brief of ${a.runId}, round ${round.iteration} (${round.path}).`);
  void vscode.window.showInformationMessage(`brief.md now holds the revised brief of round ${round.iteration}. Commit it with the run.`);
  return true;
}

async function runBrief(services: Services, arg: unknown): Promise<unknown> {
  const uri = await services.reviews.resolve(arg);
  if (!uri) {
    void vscode.window.showInformationMessage('No review folder found in this workspace.');
    return undefined;
  }
  const c = await readReviewContents(uri.fsPath);
  if (!c.hasComments) {
    void vscode.window.showWarningMessage(
      `${path.basename(uri.fsPath)} has no comments/ folder: a brief review needs the members' comments on the brief.`,
    );
    return undefined;
  }
  const extra = typeof arg === 'object' && arg !== null && !(arg instanceof vscode.Uri) ? (arg as Record<string, unknown>) : {};
  const pass: Record<string, unknown> = {};
  for (const k of ['iterations', 'turns', 'feedback'] as const) if (extra[k] !== undefined) pass[k] = extra[k];
  return vscode.commands.executeCommand('teamfusion.runReview', { ...pass, reviewRoot: uri.fsPath, task: 'brief' });
}

export function registerBriefReview(context: vscode.ExtensionContext, services: Services): void {
  const { log } = services;
  context.subscriptions.push(
    vscode.commands.registerCommand(
      COMMANDS.commentOnBrief,
      guardWriteCommand(log, 'Comment on the Brief', (arg) => commentOnBrief(services, arg)),
    ),
    vscode.commands.registerCommand(
      'teamfusion.runBriefReview',
      guardCommand(log, 'Run Brief Review', (arg) => runBrief(services, arg)),
    ),
    vscode.commands.registerCommand(
      COMMANDS.showBriefChanges,
      guardCommand(log, 'Show Changes of the Revised Brief', (arg) => showChanges(services, arg)),
    ),
    vscode.commands.registerCommand(
      COMMANDS.adoptRevisedBrief,
      guardWriteCommand(log, 'Adopt Revised Brief', (arg) => adopt(services, arg)),
    ),
  );
}
