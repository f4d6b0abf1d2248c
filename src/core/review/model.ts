/**
 * The in-memory shape of a review folder (contract §1). Produced by `loadReview`, consumed by statistics,
 * the run engine, the CLI and the extension. No `vscode` import anywhere under src/core.
 */
import type {
  ConsensusMethod,
  DiscussionMode,
  ForkMode,
  Hierarchy,
  ImageQuality,
  ImageSize,
  PersonaRole,
  PromptLayers,
  SpeakingOrder,
} from '../settings/discussionSettings';
import type { Diagnostic } from '../diagnostics/diagnostics';
import type { DesignerRanking } from '../rankings/ranking';
import type { Guest } from './guests';
import type { AuthorshipDoor } from '../authorship/door';

export type { Guest } from './guests';
export type { DesignerRanking, RankingEntry } from '../rankings/ranking';

export interface ReviewOption {
  /** File name without extension: options/4.png → "4". */
  id: string;
  /** "Image 1" … "Image n" in natural order of ids. */
  label: string;
  /** Relative to the review root, forward slashes: "options/4.png". */
  file: string;
  absPath: string;
  mime: 'image/png' | 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

/** A reference image (references/<id>.png): shown to the proxies and the remix agent for style, never a candidate. */
export interface ReviewReference extends ReviewOption {
  /** "Reference 1" … in natural order of ids. */
  label: string;
  /** What it is for (references.yaml or references/README.md); untrusted text, quoted where it is sent. */
  note?: string;
}

/** A brief review's input: comments/<designer-id>.md, one member's own reading of the brief (issue 17). */
export interface DesignerComment {
  /** Designer id: the file name without `.md` (the one designer-id rule, shared with rankings). */
  designer: string;
  /** Display name (`designer:` in the front matter). */
  name: string;
  role?: string;
  /** > 0, default 1. */
  weight: number;
  /** The Markdown below the front matter, trimmed; never empty. Untrusted text: quote it as this member's words. */
  body: string;
  /** Relative to the review root: "comments/ana.md". */
  file: string;
}

/** Optional review.yaml. Every field optional. */
export interface ReviewConfig {
  title?: string;
  /** Designer id of the lead, if any. */
  lead?: string;
  chatModel?: string;
  imageModel?: string;
  turnsPerAgent?: number;
  iterations?: number;
  /** Long side in px of images sent to the chat model. */
  imageMaxSide?: number;
  /** Remixes each remix round makes (1–4, default 1): the remix agent proposes that many, each its own image edit. */
  remixesPerIteration?: number;
  /** Sets of directions the remix agent proposes a remix round (1–8, default 4; 1: no pool): the proxies rank them and elect the remixes (issue 41). */
  pool?: number;
  /** The brief as a checklist (issue 41): every remix checked `repeat` times against the brief's must-haves (default: once), or off. */
  checklist?: 'off' | { repeat: number };
  /** Discussion design (see src/core/settings/discussionSettings.ts for values, bounds and defaults). */
  mode?: DiscussionMode;
  order?: SpeakingOrder;
  orderSeed?: number;
  leadSpeaksLast?: boolean;
  maxConcurrency?: number;
  hierarchy?: Hierarchy;
  /** Which consensus order of the team's own rankings a run falls back on (default borda). */
  consensus?: ConsensusMethod;
  /** Forks (issue 33): one remix per side of a decision point that splits the team (default auto). */
  forks?: ForkMode;
  personaRole?: PersonaRole;
  temperature?: number;
  imageSize?: ImageSize;
  imageQuality?: ImageQuality;
  /** The team's prompt layers: goal and style replace the defaults; collaborativeMove is added. */
  prompts?: PromptLayers;
  /** Team roles/weights by designer id (contract §1); used when a ranking file leaves role/weight out. */
  team?: Record<string, { role?: string; weight?: number; git?: string | string[] }>;
  /** Over `--sync`, an inbox entry is taken in only when `git verify-commit` accepts the commits that made it (default false). */
  requireSignedCommits?: boolean;
  /** Designers who take over their proxy in every run (like `run --human`). */
  humans?: string[];
  /** Perspectives that are not on the team; they speak only when called in. */
  guests?: Guest[];
  /** `usual`: the team decided this review without TeamFusion (decision.yaml, issue 19); default teamfusion. */
  condition?: 'teamfusion' | 'usual';
}

export interface Review {
  /** Absolute path of the review folder. */
  root: string;
  title: string;
  brief: string;
  /** Natural order of ids. Empty for a brief-only review (comments/ and no options/). */
  options: ReviewOption[];
  /** Sorted by designer id (natural order). */
  designers: DesignerRanking[];
  /** comments/<designer-id>.md, sorted by designer id; empty when the review has no comments/ folder. */
  comments: DesignerComment[];
  config: ReviewConfig;
  /** references/ (issue 19): the team's reference gallery, never ranked; absent or empty without one. */
  references?: ReviewReference[];
}

export interface LoadResult {
  /** Present when nothing at error severity prevents building it. */
  review?: Review;
  diagnostics: Diagnostic[];
  /** Who wrote each member's file (issue 39): the door the load asked; its report lists the files not counted. */
  authorship?: AuthorshipDoor;
}

export interface LoadOptions {
  /** Rankings are required for analysis and runs (default true). When false, a missing rankings/ folder is fine. */
  requireRankings?: boolean;
  /**
   * Decode each image with sharp to prove it opens (default true). When false, only each image's header is read (format,
   * size, the pixel cap), and sharp is not loaded: a view or a vote starts sooner.
   */
  decodeImages?: boolean;
  /**
   * Build `review` even when some ranking files have errors, leaving those designers out (for live views that
   * want to show what is there). Default false: `review` is present only when there is no error at all.
   */
  partial?: boolean;
  /**
   * With `partial`: also build `review` when review.yaml has errors, keeping only the settings that validated (the
   * panel lists the rankings with the errors above them). For showing only: runs and analysis commands load strictly.
   */
  despiteSettings?: boolean;
  /** The door that judges who wrote each member's file; default: one opened for this folder's review.yaml. */
  authorship?: AuthorshipDoor;
}
