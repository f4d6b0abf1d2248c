/**
 * Problems of review folders in the Problems panel, kept up to date while people edit: a full loadReview on open/save
 * and on file changes (debounced), and, while a ranking file or a comment on the brief has unsaved edits, that file
 * re-checked from the editor's text on every change. Diagnostic collection: 'teamfusion'.
 *
 * File events can be missed (a watcher on a busy machine misses changes in a folder made moments before; files it does
 * not watch, such as references.yaml), so they are not the only way a change on disk is seen: each review keeps a stat
 * fingerprint of its files taken before its last load (core/files/fingerprint.ts), and whenever a search of the
 * workspace lists the reviews, and every few seconds once diagnostics are live, a review whose fingerprint differs is
 * validated again (and a review that was found without any event is validated for the first time).
 */
import { formatBytes, LIMITS, listInReview, readNamedFile, readReviewBytes } from '../../core/files/reviewFiles';
import { reviewFingerprint } from '../../core/files/fingerprint';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isReviewFolder, rankingFormatOf, validateRankingText } from '../../core/review/index';
import { checkCommentText } from '../../core/review/comments';
import type { LoadResult } from '../../core/review/model';
import type { Diagnostic } from '../../core/diagnostics/diagnostics';
import type { ReviewIndex } from './reviewIndex';
import { isInside } from './reviewIndex';
import { isReviewFilePath } from '../firstUse';
import { errorMessage } from '../../core/kernel/errors';
import { blindSetDiagnostics } from './blindSet';

const IMAGE = /\.(png|jpe?g|webp)$/i;
const TEXT = /\.(md|ya?ml|json|csv|txt)$/i;
/** Pause between two looks at the disk for changes no file event reported (stat only; never two at once). */
const RECHECK_MS = 4_000;
/** Reviews one look takes in, in turn (a workspace of many reviews is gone through over several looks). */
const RECHECK_REVIEWS = 16;

export interface ProblemCount {
  errors: number;
  warnings: number;
}

export class LiveDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('teamfusion');
  private readonly published = new Map<string, Set<string>>();
  /** Last full loadReview diagnostics per review root (Uri string). */
  private readonly lastFull = new Map<string, Diagnostic[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Per review root (Uri string): the fingerprint of its files taken just before its last full load. */
  private readonly fingerprints = new Map<string, string>();
  /** Diagnostics are live once the reviews were first validated; until then nothing is looked at. */
  private live = false;
  private recheckTimer: NodeJS.Timeout | undefined;
  /** Where the next look at the disk starts among the known reviews. */
  private recheckFrom = 0;
  private disposed = false;
  private readonly didPublish = new vscode.EventEmitter<vscode.Uri>();
  /** Fires with the review root whenever its diagnostics were (re)published. */
  readonly onDidPublish = this.didPublish.event;
  private readonly disposables: vscode.Disposable[] = [this.collection, this.didPublish];

  constructor(
    private readonly reviews: ReviewIndex,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const onDoc = (delayMs: number) => (doc: vscode.TextDocument) => void this.onDocument(doc, delayMs);
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument(onDoc(100)),
      vscode.workspace.onDidSaveTextDocument(onDoc(100)),
      vscode.workspace.onDidCloseTextDocument(onDoc(100)),
      vscode.workspace.onDidChangeTextDocument((e) => void this.onEdit(e.document)),
      reviews.onDidChange(() => this.scheduleAll()),
      reviews.onDidSearch((roots) => void this.onSearched(roots)),
    );
  }

  /** Loads a review, publishes its diagnostics, and returns the result (with unsaved ranking edits overlaid). */
  async validate(root: vscode.Uri): Promise<LoadResult> {
    // Taken before loading: a change made while it loads shows as a different fingerprint at the next look.
    const fingerprint = await this.fingerprintOf(root);
    const result = await this.reviews.load(root);
    if (fingerprint !== undefined) this.fingerprints.set(root.toString(), fingerprint);
    this.lastFull.set(root.toString(), result.diagnostics);
    const diagnostics = await this.withUnsavedEdits(root, result.diagnostics);
    await this.publish(root, diagnostics);
    return { ...result, diagnostics };
  }

  /** Validates every review of the workspace; clears reviews that are gone. */
  async validateAll(): Promise<void> {
    this.goLive();
    const roots = await this.reviews.find();
    const keep = new Set(roots.map((r) => r.toString()));
    for (const key of [...this.published.keys()]) {
      if (!keep.has(key) && !key.startsWith('extra:')) this.clear(vscode.Uri.parse(key));
    }
    for (const root of roots) await this.validate(root);
  }

  /** Publishes diagnostics that belong to no review (e.g. a CSV's problems), under their own key. */
  async publishExtra(key: string, base: vscode.Uri, diagnostics: Diagnostic[]): Promise<void> {
    await this.publishUnder(`extra:${key}`, base, diagnostics);
  }

  clear(root: vscode.Uri): void {
    const key = root.toString();
    for (const u of this.published.get(key) ?? []) this.collection.delete(vscode.Uri.parse(u));
    this.published.delete(key);
    this.lastFull.delete(key);
    this.fingerprints.delete(key);
  }

  /**
   * Looks at the disk for changes no file event reported: each review whose files' fingerprint differs from the one taken
   * before its last load is validated again; one never validated is validated; one that is no longer a review folder
   * is cleared (and the index told). Cheap when nothing changed: stat calls only.
   */
  async recheck(roots: readonly vscode.Uri[]): Promise<void> {
    for (const root of roots) {
      const key = root.toString();
      if (this.timers.has(key)) continue; // a validation is already on its way
      const now = await this.fingerprintOf(root);
      if (now === undefined || now === this.fingerprints.get(key)) continue;
      if (this.fingerprints.has(key) && !(await isReviewFolder(root.fsPath).catch(() => false))) {
        this.clear(root);
        this.didPublish.fire(root);
        this.reviews.invalidate();
        continue;
      }
      this.log.debug(`Files of ${root.fsPath} changed on disk without a file event; validating it again.`);
      this.debounce(key, 50, () => this.validate(root));
    }
  }

  /**
   * A search listed the reviews: validate what changed or is new. (What the search no longer lists is left to the looks
   * at the disk: a search that began before a review was made may end after it was validated.)
   */
  private async onSearched(roots: readonly vscode.Uri[]): Promise<void> {
    if (!this.live || this.disposed) return;
    await this.recheck(roots).catch((e: unknown) => this.log.error(`Checking the reviews on disk failed: ${String(e)}`));
  }

  /** From the first validation on: a look at the disk every RECHECK_MS after the previous one, RECHECK_REVIEWS reviews each. */
  private goLive(): void {
    if (this.live) return;
    this.live = true;
    const next = (): void => {
      if (this.disposed) return;
      this.recheckTimer = setTimeout(() => {
        const keys = [...this.fingerprints.keys()];
        const from = keys.length ? this.recheckFrom % keys.length : 0;
        const turn = [...keys.slice(from), ...keys.slice(0, from)].slice(0, RECHECK_REVIEWS);
        this.recheckFrom = from + turn.length;
        this.recheck(turn.map((k) => vscode.Uri.parse(k)))
          .catch((e: unknown) => this.log.error(`Checking the reviews on disk failed: ${String(e)}`))
          .finally(next);
      }, RECHECK_MS);
    };
    next();
  }

  private async fingerprintOf(root: vscode.Uri): Promise<string | undefined> {
    if (root.scheme !== 'file') return undefined;
    try {
      return await reviewFingerprint(root.fsPath);
    } catch {
      return undefined;
    }
  }

  /** Errors and warnings currently shown for a file, or for everything under a folder. */
  count(uri: vscode.Uri): ProblemCount {
    const c: ProblemCount = { errors: 0, warnings: 0 };
    this.collection.forEach((u, list) => {
      if (!isInside(u, uri)) return;
      for (const d of list) {
        if (d.severity === vscode.DiagnosticSeverity.Error) c.errors++;
        else if (d.severity === vscode.DiagnosticSeverity.Warning) c.warnings++;
      }
    });
    return c;
  }

  private scheduleAll(): void {
    this.debounce('*', 400, () => this.validateAll());
  }

  private debounce(key: string, ms: number, fn: () => Promise<unknown>): void {
    const old = this.timers.get(key);
    if (old) clearTimeout(old);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        fn().catch((e: unknown) => this.log.error(`Validation failed: ${errorMessage(e)}`));
      }, ms),
    );
  }

  /** An open, save or close (`edit` false) or a change (`edit` true) that happened before this was listening. */
  replay(doc: vscode.TextDocument, edit: boolean): void {
    void (edit ? this.onEdit(doc) : this.onDocument(doc, 100));
  }

  private async onDocument(doc: vscode.TextDocument, delayMs: number): Promise<void> {
    if (doc.uri.scheme !== 'file' || !isReviewFile(doc.uri)) return;
    const root = await this.reviews.reviewOf(doc.uri);
    if (root) this.debounce(root.toString(), delayMs, () => this.validate(root));
  }

  /** Typing in a ranking file: re-check that file's text only, keep the rest of the review's last full result. */
  private async onEdit(doc: vscode.TextDocument): Promise<void> {
    if (doc.uri.scheme !== 'file' || !isReviewFile(doc.uri)) return;
    const root = await this.reviews.reviewOf(doc.uri);
    if (!root) return;
    const key = root.toString();
    if (!(rankingRel(root, doc.uri) || commentRelOf(root, doc.uri)) || !this.lastFull.has(key)) {
      // Not a ranking file (or never validated): the files on disk tell, once saved; a first validation now.
      if (!this.lastFull.has(key)) this.debounce(key, 300, () => this.validate(root));
      return;
    }
    this.debounce(`edit:${key}`, 250, async () => {
      const merged = await this.withUnsavedEdits(root, this.lastFull.get(key) ?? []);
      await this.publish(root, merged);
    });
  }

  /** Replaces the diagnostics of ranking files that have unsaved edits with a check of the editor's text. */
  private async withUnsavedEdits(root: vscode.Uri, diagnostics: Diagnostic[]): Promise<Diagnostic[]> {
    let out = diagnostics;
    // A comment on the brief being typed: that file checked from the editor's text (the same cap as on disk first).
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && commentRelOf(root, d.uri))) {
      const rel = commentRelOf(root, doc.uri) as string;
      const text = doc.getText();
      const fresh =
        Buffer.byteLength(text, 'utf8') > LIMITS.comment
          ? [
              {
                file: rel,
                line: 0,
                column: 0,
                severity: 'error' as const,
                message: `${rel} is too large (at most ${formatBytes(LIMITS.comment)}).`,
              },
            ]
          : checkCommentText(text, rel).diagnostics;
      out = [...out.filter((d) => d.file !== rel), ...fresh];
    }
    const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && rankingRel(root, d.uri));
    if (dirty.length === 0) return out;
    const optionIds = await optionIdsOf(root);
    for (const doc of dirty) {
      const rel = rankingRel(root, doc.uri);
      const format = rel ? rankingFormatOf(rel) : undefined;
      if (!rel || !format) continue;
      const text = doc.getText();
      // An editor may hold more than a ranking file may have: the same cap as on disk, checked before parsing.
      const fresh =
        Buffer.byteLength(text, 'utf8') > LIMITS.ranking
          ? [
              {
                file: rel,
                line: 0,
                column: 0,
                severity: 'error' as const,
                message: `${rel} is too large (at most ${formatBytes(LIMITS.ranking)}).`,
              },
            ]
          : validateRankingText(text, rel, optionIds, format).diagnostics;
      out = [...out.filter((d) => d.file !== rel), ...fresh];
    }
    return out;
  }

  private async publish(root: vscode.Uri, diagnostics: Diagnostic[]): Promise<void> {
    // A blind re-rank set nobody has ranked yet is no error (the run's re-rank step, not yet done).
    await this.publishUnder(root.toString(), root, blindSetDiagnostics(root.fsPath, diagnostics));
    this.didPublish.fire(root);
  }

  private async publishUnder(key: string, base: vscode.Uri, diagnostics: Diagnostic[]): Promise<void> {
    const byFile = new Map<string, vscode.Diagnostic[]>();
    const lineCache = new Map<string, string[] | undefined>();
    for (const d of diagnostics) {
      const uri = fileUri(base, d.file);
      const k = uri.toString();
      if (!lineCache.has(k)) lineCache.set(k, await linesOf(uri, base, d.file));
      const vd = new vscode.Diagnostic(rangeOf(d, lineCache.get(k)), d.message, toSeverity(d.severity));
      vd.source = 'TeamFusion';
      const list = byFile.get(k) ?? [];
      list.push(vd);
      byFile.set(k, list);
    }
    for (const old of this.published.get(key) ?? []) {
      if (!byFile.has(old)) this.collection.delete(vscode.Uri.parse(old));
    }
    for (const [k, list] of byFile) this.collection.set(vscode.Uri.parse(k), list);
    this.published.set(key, new Set(byFile.keys()));
  }

  dispose(): void {
    this.disposed = true;
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    for (const t of this.timers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}

function isReviewFile(uri: vscode.Uri): boolean {
  return isReviewFilePath(uri.path);
}

/** "rankings/ana.yaml" when `uri` is a ranking file directly in `root`'s rankings/, else undefined. */
function rankingRel(root: vscode.Uri, uri: vscode.Uri): string | undefined {
  if (!isInside(uri, root)) return undefined;
  const rel = path.posix.relative(root.path, uri.path);
  return /^rankings\/[^/]+\.(ya?ml|json)$/i.test(rel) ? rel : undefined;
}

/** "comments/ana.md" when `uri` is a comment file directly in `root`'s comments/, else undefined. */
function commentRelOf(root: vscode.Uri, uri: vscode.Uri): string | undefined {
  if (!isInside(uri, root)) return undefined;
  const rel = path.posix.relative(root.path, uri.path);
  return /^comments\/[^/]+\.md$/i.test(rel) ? rel : undefined;
}

async function optionIdsOf(root: vscode.Uri): Promise<string[]> {
  try {
    const names = (await listInReview(root.fsPath, 'options')) ?? [];
    return names.filter((n) => IMAGE.test(n)).map((n) => n.replace(/\.[^.]+$/, ''));
  } catch {
    return [];
  }
}

/** The Uri a diagnostic's `file` names: relative to the review root ('.' = the root itself), or absolute. */
export function fileUri(root: vscode.Uri, file: string): vscode.Uri {
  if (path.isAbsolute(file)) return vscode.Uri.file(file);
  const clean = file.replace(/\\/g, '/').replace(/\/+$/, '');
  if (clean === '' || clean === '.') return root;
  return vscode.Uri.joinPath(root, ...clean.split('/'));
}

/**
 * The lines of a diagnostic's file, for its range. Read through the review's file room (contained, regular file, capped):
 * a file that leads outside the review, a pipe or a huge file gives no lines, never a read outside or a hang.
 */
async function linesOf(uri: vscode.Uri, base: vscode.Uri, file: string): Promise<string[] | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText().split(/\r?\n/);
  if (uri.scheme !== 'file' || !TEXT.test(uri.path)) return undefined;
  try {
    const bytes = path.isAbsolute(file)
      ? await readNamedFile(uri.fsPath, file, LIMITS.csv)
      : await readReviewBytes(base.fsPath, file, LIMITS.ranking);
    return bytes.toString('utf8').split(/\r?\n/);
  } catch {
    return undefined;
  }
}

/**
 * 1-based line/column → a 0-based Range from that position to the end of the line's text. Line 0 (unknown) → the first
 * line. Without the text (images, folders), an empty range at the position.
 */
export function rangeOf(d: Pick<Diagnostic, 'line' | 'column'>, lines: string[] | undefined): vscode.Range {
  let line = d.line > 0 ? d.line - 1 : 0;
  let col = d.line > 0 && d.column > 0 ? d.column - 1 : 0;
  if (!lines || lines.length === 0) return new vscode.Range(line, col, line, col);
  line = Math.min(line, lines.length - 1);
  const text = lines[line] ?? '';
  col = Math.min(col, text.length);
  const end = Math.max(text.trimEnd().length, col);
  return new vscode.Range(line, col, line, end);
}

function toSeverity(s: Diagnostic['severity']): vscode.DiagnosticSeverity {
  return s === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
}
