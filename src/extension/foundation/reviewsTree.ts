/**
 * The "Reviews" view (teamfusion.reviews): each review folder of the workspace with its brief, options, designers
 * and runs. Review items carry contextValue 'review' and `reviewRoot`; run items carry contextValue 'run' and
 * `{ reviewRoot, runId }`, which is what the review and run commands accept as their argument.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ReviewIndex } from './reviewIndex';
import type { LiveDiagnostics } from './liveDiagnostics';
import { readReviewContents, type ReviewContents, type RunEntry } from './reviewContents';
import { placeBlindSets, rerankStepLabel, rerankStepTooltip, runKey } from './blindSet';

interface NodeBase {
  readonly id: string;
  readonly parent?: ReviewNode | GroupNode | RunNode;
  /** Absolute path of the review folder this node belongs to. */
  readonly reviewRoot: string;
}
export interface ReviewNode extends NodeBase {
  readonly kind: 'review';
  readonly uri: vscode.Uri;
}
export interface GroupNode extends NodeBase {
  readonly kind: 'options' | 'designers' | 'comments' | 'runs';
  readonly parent: ReviewNode;
}
export interface FileNode extends NodeBase {
  readonly kind: 'brief' | 'option' | 'designer' | 'comment';
  readonly resourceUri: vscode.Uri;
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
}
export interface RunNode extends NodeBase {
  readonly kind: 'run';
  readonly runId: string;
  readonly run: RunEntry;
  readonly resourceUri: vscode.Uri;
  /** The run's blind re-rank set (runs/<run-id>/rerank), listed under the run as its re-rank step. */
  readonly blindSet?: string;
}
/** A run's blind re-rank step: its set, who has ranked it of the review's designers; opens the set's panel. */
export interface RerankNode extends NodeBase {
  readonly kind: 'rerank';
  readonly parent: RunNode;
  readonly runId: string;
  readonly blindSet: string;
}
export interface InfoNode extends NodeBase {
  readonly kind: 'info';
  readonly label: string;
}
export type TreeNode = ReviewNode | GroupNode | FileNode | RunNode | RerankNode | InfoNode;

/** A plain copy of what the tree shows (for tests and scripts: command teamfusion.internal.describeReviewsTree). */
export interface TreeSnapshot {
  label: string;
  description?: string;
  contextValue?: string;
  icon?: string;
  tooltip?: string;
  command?: string;
  /** Run items: what the run commands receive. */
  reviewRoot?: string;
  runId?: string;
  children?: TreeSnapshot[];
}

const RUN_ICONS: Record<NonNullable<RunEntry['status']> | 'unknown', vscode.ThemeIcon> = {
  running: new vscode.ThemeIcon('sync~spin'),
  waiting: new vscode.ThemeIcon('comment-discussion'),
  completed: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  failed: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  cancelled: new vscode.ThemeIcon('circle-slash'),
  unknown: new vscode.ThemeIcon('question'),
};

export class ReviewsTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly contents = new Map<string, Promise<ReviewContents>>();
  private readonly reviewNodes = new Map<string, ReviewNode>();
  /** Blind re-rank sets listed under their runs (runKey → the set's folder), as of the last listing of the reviews. */
  private blindSets = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly reviews: ReviewIndex,
    private readonly diagnostics: LiveDiagnostics,
  ) {
    this.disposables.push(
      reviews.onDidChange(() => this.refresh()),
      diagnostics.onDidPublish(() => this.refresh()),
    );
  }

  /** Forgets what was read; the view re-reads it (the change event is debounced by 200 ms). */
  refresh(): void {
    this.contents.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.contents.clear();
      this.changed.fire(undefined);
    }, 200);
  }

  /** The node of a review root, once the tree has listed it. */
  async reviewNode(root: vscode.Uri): Promise<ReviewNode | undefined> {
    await this.getChildren(undefined);
    return this.reviewNodes.get(root.fsPath);
  }

  private load(root: string): Promise<ReviewContents> {
    let p = this.contents.get(root);
    if (!p) {
      p = readReviewContents(root);
      this.contents.set(root, p);
    }
    return p;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) {
      const found = await this.reviews.find();
      // A run's blind set is listed under its run, not as a review of its own.
      const placed = placeBlindSets(found.map((u) => u.fsPath));
      this.blindSets = placed.blindSets;
      const shown = new Set(placed.reviews);
      const roots = found.filter((u) => shown.has(u.fsPath));
      const nodes: ReviewNode[] = [];
      const previous = new Map(this.reviewNodes);
      this.reviewNodes.clear();
      for (const uri of roots) {
        const key = uri.fsPath;
        const n: ReviewNode = previous.get(key) ?? { kind: 'review', id: `review:${uri.toString()}`, reviewRoot: key, uri };
        this.reviewNodes.set(key, n);
        nodes.push(n);
      }
      return nodes;
    }
    const root = node.reviewRoot;
    const rootUri = vscode.Uri.file(root);
    const base = (id: string) => `${node.id}/${id}`;
    /** An item for a file of the review (`file` relative to its folder). */
    const fileItem = <K extends 'option' | 'designer' | 'comment'>(group: GroupNode, kind: K, file: string) => ({
      kind,
      id: base(file),
      parent: group,
      reviewRoot: root,
      resourceUri: vscode.Uri.joinPath(rootUri, ...file.split('/')),
    });
    /** A person's tooltip: name — role, what the file is, the file. */
    const personTooltip = (p: { name: string; role?: string }, what: string, file: string) =>
      `${p.name}${p.role ? ` — ${p.role}` : ''}\n${what}\n${file}`;
    switch (node.kind) {
      case 'review': {
        const c = await this.load(root);
        const out: TreeNode[] = [];
        if (c.hasBrief) {
          out.push({
            kind: 'brief',
            id: base('brief'),
            parent: node,
            reviewRoot: root,
            resourceUri: vscode.Uri.joinPath(rootUri, 'brief.md'),
            label: 'Brief',
          });
        }
        // A brief review (comments/, no options/ or rankings/) shows its members' comments instead of options and designers;
        // a folder with both shows both.
        const design = c.options.length > 0 || c.designers.length > 0 || !c.hasComments;
        const groups = [
          ...(design ? (['options', 'designers'] as const) : []),
          ...(c.hasComments ? (['comments'] as const) : []),
          'runs' as const,
        ];
        for (const kind of groups) out.push({ kind, id: base(kind), parent: node, reviewRoot: root });
        return out;
      }
      case 'options': {
        const c = await this.load(root);
        return c.options.map((o) => ({
          ...fileItem(node, 'option', o.file),
          label: path.posix.basename(o.file),
          description: `${o.label} · id ${o.id}`,
        }));
      }
      case 'designers': {
        const c = await this.load(root);
        return c.designers.map((d) => ({
          ...fileItem(node, 'designer', d.file),
          label: d.name,
          description: d.role
            ? d.weight !== 1
              ? `${d.role} · weight ${d.weight}`
              : d.role
            : d.weight !== 1
              ? `weight ${d.weight}`
              : undefined,
          tooltip: personTooltip(d, `Weight ${d.weight} (weighted consensus only)`, d.file),
        }));
      }
      case 'comments': {
        const c = await this.load(root);
        if (c.comments.length === 0)
          return [
            {
              kind: 'info',
              id: base('none'),
              parent: node,
              reviewRoot: root,
              label: 'No comments yet: open the brief and use "Comment on the Brief"',
            },
          ];
        return c.comments.map((m) => ({
          ...fileItem(node, 'comment', m.file),
          label: m.name,
          description: m.role,
          tooltip: personTooltip(m, 'Their reading of the brief', m.file),
        }));
      }
      case 'runs': {
        const c = await this.load(root);
        if (c.runs.length === 0) return [{ kind: 'info', id: base('none'), parent: node, reviewRoot: root, label: 'No runs yet' }];
        return c.runs.map((r) => {
          const blindSet = this.blindSets.get(runKey(root, r.runId));
          return {
            kind: 'run' as const,
            id: base(`run:${r.runId}`),
            parent: node,
            reviewRoot: root,
            runId: r.runId,
            run: r,
            resourceUri: vscode.Uri.joinPath(rootUri, 'runs', r.runId),
            ...(blindSet ? { blindSet } : {}),
          };
        });
      }
      case 'run':
        return node.blindSet
          ? [{ kind: 'rerank', id: base('rerank'), parent: node, reviewRoot: root, runId: node.runId, blindSet: node.blindSet }]
          : [];
      default:
        return [];
    }
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  async getTreeItem(node: TreeNode): Promise<vscode.TreeItem> {
    switch (node.kind) {
      case 'review': {
        const c = await this.load(node.reviewRoot);
        // Two reviews with the same title (copies): tell them apart by folder name.
        let label = c.title;
        for (const other of this.reviewNodes.values()) {
          if (other !== node && (await this.load(other.reviewRoot)).title === c.title) {
            label = `${c.title} (${path.basename(node.reviewRoot)})`;
            break;
          }
        }
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
        const problems = this.diagnostics.count(node.uri);
        item.id = node.id;
        item.contextValue = 'review';
        item.description = [
          vscode.workspace.asRelativePath(node.uri, false),
          problems.errors ? plural(problems.errors, 'error') : '',
          problems.warnings ? plural(problems.warnings, 'warning') : '',
        ]
          .filter(Boolean)
          .join(' · ');
        item.iconPath = problems.errors
          ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'))
          : new vscode.ThemeIcon('organization');
        const kind = c.hasComments
          ? c.options.length || c.designers.length
            ? 'Design and brief review'
            : 'Brief review'
          : 'Design review';
        item.tooltip = `${c.title}\n${node.reviewRoot}\n${kind}: ${[
          c.options.length || !c.hasComments ? `${c.options.length} options · ${c.designers.length} designers` : '',
          c.hasComments ? `${c.comments.length} comments on the brief` : '',
          `${c.runs.length} run${c.runs.length === 1 ? '' : 's'}`,
        ]
          .filter(Boolean)
          .join(' · ')}`;
        return item;
      }
      case 'options':
      case 'designers':
      case 'comments':
      case 'runs': {
        const c = await this.load(node.reviewRoot);
        const n = { options: c.options.length, designers: c.designers.length, comments: c.comments.length, runs: c.runs.length }[node.kind];
        const label = { options: 'Options', designers: 'Designers', comments: 'Comments on the brief', runs: 'Runs' }[node.kind];
        const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = node.id;
        item.description = String(n);
        item.contextValue = node.kind;
        item.iconPath = new vscode.ThemeIcon(
          { options: 'file-media', designers: 'account', comments: 'comment', runs: 'history' }[node.kind],
        );
        if (node.kind === 'comments')
          item.tooltip =
            "Each member's reading of the brief (comments/<designer-id>.md). Run a brief review to turn them into one revised brief.";
        return item;
      }
      case 'brief':
      case 'option':
      case 'designer':
      case 'comment': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.resourceUri = node.resourceUri;
        item.description = node.description;
        item.tooltip = node.tooltip ?? vscode.workspace.asRelativePath(node.resourceUri, false);
        item.contextValue = node.kind;
        item.command = { command: 'vscode.open', title: 'Open', arguments: [node.resourceUri] };
        if (node.kind === 'brief') item.iconPath = new vscode.ThemeIcon('book');
        if (node.kind === 'designer' || node.kind === 'comment') {
          const p = this.diagnostics.count(node.resourceUri);
          item.iconPath = p.errors
            ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'))
            : p.warnings
              ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
              : new vscode.ThemeIcon(node.kind === 'comment' ? 'comment' : 'person');
        }
        return item;
      }
      case 'run': {
        const r = node.run;
        const item = new vscode.TreeItem(
          r.runId,
          node.blindSet ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
        );
        item.id = node.id;
        item.contextValue = 'run';
        item.iconPath = r.problem
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsErrorIcon.foreground'))
          : r.interrupted
            ? new vscode.ThemeIcon('debug-pause')
            : RUN_ICONS[r.status ?? 'unknown'];
        item.description = [
          r.problem ? 'broken record' : r.interrupted ? 'interrupted' : (r.status ?? 'unreadable'),
          r.iterations ? plural(r.iterations, 'iteration') : '',
          r.finalPick ? `pick ${r.finalPick}` : '',
        ]
          .filter(Boolean)
          .join(' · ');
        item.tooltip = r.problem
          ? `${r.runId}\nThis run cannot be used:\n${r.problem}`
          : `${r.runId}\nStatus: ${r.interrupted ? 'interrupted (no process drives it; resume it to continue)' : (r.status ?? 'run.json could not be read')}${r.startedAt ? `\nStarted: ${r.startedAt}` : ''}${r.error ? `\n${r.error}` : ''}`;
        item.command = {
          command: 'teamfusion.openReview',
          title: 'Open Run',
          arguments: [{ reviewRoot: node.reviewRoot, runId: r.runId }],
        };
        return item;
      }
      case 'rerank': {
        const [team, set] = await Promise.all([this.load(node.reviewRoot), this.load(node.blindSet)]);
        const ranked = new Set(set.designers.map((d) => d.id));
        const item = new vscode.TreeItem(rerankStepLabel(ranked.size, team.designers.length), vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.contextValue = 'rerank';
        item.iconPath = new vscode.ThemeIcon('eye-closed');
        item.tooltip = rerankStepTooltip(
          node.runId,
          set.designers.map((d) => d.name),
          team.designers.filter((d) => !ranked.has(d.id)).map((d) => d.name),
          vscode.workspace.asRelativePath(node.blindSet, false),
        );
        item.command = {
          command: 'teamfusion.openReview',
          title: 'Open the Blind Re-rank Step',
          arguments: [vscode.Uri.file(node.blindSet)],
        };
        return item;
      }
      case 'info': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.id = node.id;
        item.contextValue = 'info';
        return item;
      }
    }
  }

  /** What the tree shows, `depth` levels deep, as plain data. */
  async snapshot(depth = 3, node?: TreeNode): Promise<TreeSnapshot[]> {
    const children = await this.getChildren(node);
    const out: TreeSnapshot[] = [];
    for (const child of children) {
      const item = await this.getTreeItem(child);
      const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
      const snap: TreeSnapshot = {
        label,
        description: typeof item.description === 'string' ? item.description : undefined,
        contextValue: item.contextValue,
        icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined,
        ...(child.kind === 'run' || child.kind === 'rerank' ? { reviewRoot: child.reviewRoot, runId: child.runId } : {}),
        tooltip: typeof item.tooltip === 'string' ? item.tooltip : undefined,
        command: item.command?.command,
      };
      if (depth > 1 && item.collapsibleState !== vscode.TreeItemCollapsibleState.None)
        snap.children = await this.snapshot(depth - 1, child);
      out.push(snap);
    }
    return out;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
