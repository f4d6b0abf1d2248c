/**
 * Knows where the review folders of the workspace are, loads them, and says when anything in them changed.
 * A review folder is one holding brief.md (a brief review: brief.md and comments/), or options/ next to rankings/
 * (see isReviewFolder).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isReviewFolder, loadReview } from '../../core/review/index';
import type { LoadOptions, LoadResult } from '../../core/review/model';
import { errorMessage } from '../../core/kernel/errors';

/** Folders never searched: dependencies, build output and run folders (runs hold copies, not reviews). */
const EXCLUDE = '{**/node_modules/**,**/runs/**,**/.git/**,**/out/**,**/dist/**}';
/** The one review inside a run folder: the team's re-ranking of the run's final candidates (runs/<run-id>/rerank). */
const RERANK_BRIEFS = '**/runs/*/rerank/brief.md';
const RERANK_EXCLUDE = '{**/node_modules/**,**/.git/**,**/out/**,**/dist/**}';

/** How long a search result is trusted without a file event. */
const CACHE_MS = 5_000;

/** What a command argument may carry to name a review (tree items, URIs, scripts, tests). */
interface ReviewRef {
  reviewRoot?: unknown;
  root?: unknown;
  uri?: unknown;
  resourceUri?: unknown;
}

export class ReviewIndex implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires (debounced) when a review appears, disappears, or a file inside one changes. */
  readonly onDidChange: vscode.Event<void> = this.changed.event;
  private readonly searched = new vscode.EventEmitter<readonly vscode.Uri[]>();
  /**
   * Fires with the review roots each time a search of the workspace completed (not for answers from the cache): what is
   * on disk now, whether or not a file event told about it.
   */
  readonly onDidSearch: vscode.Event<readonly vscode.Uri[]> = this.searched.event;
  private readonly disposables: vscode.Disposable[] = [this.changed, this.searched];
  private cached: Promise<vscode.Uri[]> | undefined;
  private cachedAt = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `watcher` watches REVIEW_FILES_GLOB (firstUse.ts); the activation shell made it, so it was live before the core loaded. */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    watcher: vscode.FileSystemWatcher,
  ) {
    watcher.onDidCreate((uri) => this.onWatched('create', uri), undefined, this.disposables);
    watcher.onDidDelete((uri) => this.onWatched('delete', uri), undefined, this.disposables);
    watcher.onDidChange((uri) => this.onWatched('change', uri), undefined, this.disposables);
    this.disposables.push(
      watcher,
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()),
      // Whole folders deleted, renamed or pasted in the explorer: the watcher above only sees matching paths.
      vscode.workspace.onDidDeleteFiles(() => this.invalidate()),
      vscode.workspace.onDidRenameFiles(() => this.invalidate()),
      vscode.workspace.onDidCreateFiles(() => this.invalidate()),
    );
  }

  /** A review file created, deleted or changed on disk (also the one the shell saw before the core loaded). */
  onWatched(kind: 'create' | 'delete' | 'change', uri: vscode.Uri): void {
    if (uri.path.includes('/node_modules/')) return;
    // run.json is rewritten as a run goes: a new run is a create, its later writes change no review.
    if (kind === 'change' && uri.path.endsWith('/run.json')) return;
    this.invalidate();
  }

  /** Forgets what was found and fires onDidChange (debounced by 250 ms). */
  invalidate(): void {
    this.cached = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.changed.fire();
    }, 250);
  }

  /** Review roots of the workspace, sorted by path. */
  find(): Promise<vscode.Uri[]> {
    // File events can be missed (the watcher starts late on a busy machine, or the folder is outside its reach), so a
    // search result is also forgotten after a few seconds; findFiles is cheap.
    if (this.cached && Date.now() - this.cachedAt > CACHE_MS) this.cached = undefined;
    if (!this.cached) this.cachedAt = Date.now();
    this.cached ??= this.search().catch((e: unknown) => {
      this.log.error(`Looking for review folders failed: ${String(e)}`);
      this.cached = undefined;
      return [];
    });
    return this.cached;
  }

  private async search(): Promise<vscode.Uri[]> {
    if (!vscode.workspace.workspaceFolders?.length) return [];
    const [briefs, options, reranks] = await Promise.all([
      vscode.workspace.findFiles('**/brief.md', EXCLUDE, 2000),
      vscode.workspace.findFiles('**/options/*', EXCLUDE, 20000),
      vscode.workspace.findFiles(RERANK_BRIEFS, RERANK_EXCLUDE, 2000),
    ]);
    const candidates = new Map<string, vscode.Uri>();
    for (const b of [...briefs, ...reranks]) candidates.set(dirOf(b).toString(), dirOf(b));
    for (const o of options) {
      const root = dirOf(dirOf(o));
      candidates.set(root.toString(), root);
    }
    const roots: vscode.Uri[] = [];
    for (const root of candidates.values()) {
      if (root.scheme !== 'file' || (await isReviewFolder(root.fsPath))) roots.push(root);
    }
    roots.sort((a, b) => a.fsPath.localeCompare(b.fsPath));
    this.log.debug(`Found ${roots.length} review folder(s).`);
    this.searched.fire(roots);
    return roots;
  }

  /** The review holding `uri` (the deepest review root that contains it), if any. */
  async reviewOf(uri: vscode.Uri): Promise<vscode.Uri | undefined> {
    const roots = await this.find();
    let best: vscode.Uri | undefined;
    for (const r of roots) {
      if (isInside(uri, r) && (!best || r.fsPath.length > best.fsPath.length)) best = r;
    }
    if (best) return best;
    // Not indexed (yet): walk up from the file.
    if (uri.scheme !== 'file') return undefined;
    let dir = uri.fsPath;
    for (let i = 0; i < 6; i++) {
      if (await isReviewFolder(dir)) return vscode.Uri.file(dir);
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
    return undefined;
  }

  /**
   * The review a command should act on: the one named by its argument (a Uri, a tree item, `{ reviewRoot }`, a path),
   * else the active editor's review, else the only review, else the user's pick. Undefined when there is none or the
   * user cancelled.
   */
  async resolve(arg?: unknown): Promise<vscode.Uri | undefined> {
    const named = toUri(arg);
    if (named) {
      // A review folder named directly is that review, even when it sits inside another one (runs/<id>/rerank) and
      // the index has not seen it yet.
      const own = (named.scheme === 'file' && (await isReviewFolder(named.fsPath)) ? named : undefined) ?? (await this.reviewOf(named));
      if (own) return own;
      // A folder above reviews (e.g. the explorer's context menu on a parent folder): one of the reviews inside it.
      return this.pick((await this.find()).filter((r) => isInside(r, named)));
    }
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active && active.scheme === 'file') {
      const r = await this.reviewOf(active);
      if (r) return r;
    }
    return this.pick(await this.find());
  }

  private async pick(roots: vscode.Uri[]): Promise<vscode.Uri | undefined> {
    if (roots.length <= 1) return roots[0];
    const picked = await vscode.window.showQuickPick(
      roots.map((r) => ({ label: path.basename(r.fsPath), description: vscode.workspace.asRelativePath(r, true), root: r })),
      { title: 'TeamFusion', placeHolder: 'Which review?' },
    );
    return picked?.root;
  }

  /** Loads a review; never throws (problems come back as diagnostics). */
  async load(root: vscode.Uri, opts?: LoadOptions): Promise<LoadResult> {
    try {
      return await loadReview(root.fsPath, opts);
    } catch (e) {
      this.log.error(`Loading ${root.fsPath} failed: ${errorMessage(e)}`);
      return {
        diagnostics: [{ file: '.', line: 0, column: 0, severity: 'error', message: 'The review folder could not be read.' }],
      };
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

function dirOf(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(uri, '..');
}

export function isInside(uri: vscode.Uri, root: vscode.Uri): boolean {
  if (uri.scheme !== root.scheme || uri.authority !== root.authority) return false;
  const rel = path.posix.relative(root.path, uri.path);
  return rel === '' || (!rel.startsWith('..') && !path.posix.isAbsolute(rel));
}

/** A Uri named by a command argument, if it names one. */
export function toUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg.length > 0) return path.isAbsolute(arg) ? vscode.Uri.file(arg) : vscode.Uri.parse(arg);
  if (arg && typeof arg === 'object') {
    const ref = arg as ReviewRef;
    for (const v of [ref.reviewRoot, ref.root, ref.uri, ref.resourceUri]) {
      const u = v instanceof vscode.Uri ? v : typeof v === 'string' ? toUri(v) : undefined;
      if (u) return u;
    }
  }
  return undefined;
}
