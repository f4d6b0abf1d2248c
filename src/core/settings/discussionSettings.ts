/**
 * The discussion's knobs in ONE place: allowed values and defaults (bounds: settingBounds.ts) of mode, speaking order, hierarchy, persona role,
 * temperature, concurrency, image size/quality and the team's prompt layers. review.yaml, the CLI flags, the VS Code
 * settings and the run.json schema (discussionSchema.ts) all take their rules from here, so a value accepted by one is
 * accepted by all. No zod here: the webview uses these values too.
 */

export const DISCUSSION_MODES = ['separate-then-together', 'together', 'separate'] as const;
export type DiscussionMode = (typeof DISCUSSION_MODES)[number];

/** Which part of a round produced a message. */
export const PHASES = ['independent', 'together', 'separate'] as const;
export type Phase = (typeof PHASES)[number];

export const SPEAKING_ORDERS = ['rotate', 'shuffle', 'fixed'] as const;
export type SpeakingOrder = (typeof SPEAKING_ORDERS)[number];

export const HIERARCHIES = ['flat', 'weighted', 'lead-decides'] as const;
export type Hierarchy = (typeof HIERARCHIES)[number];

/** Which consensus order of the team's own rankings a run uses for its tie-breaks and fills (default borda). */
export const CONSENSUS_METHODS = ['borda', 'schulze'] as const;
export type ConsensusMethod = (typeof CONSENSUS_METHODS)[number];

/**
 * Forks (issue 33): what a remix round does with a decision point that splits the team. `off`: nothing (records from before
 * the setting read so); `auto` (default of a new run): one remix per side of the first such point; `ask`: the lead picks
 * which point to fork, or none, at the round's end.
 */
export const FORK_MODES = ['off', 'auto', 'ask'] as const;
export type ForkMode = (typeof FORK_MODES)[number];
export const DEFAULT_FORK_MODE: ForkMode = 'auto';

/** The fork mode of a recorded run (a record written before the setting existed never forks). */
export function forkModeOf(s: { forks?: ForkMode }): ForkMode {
  return s.forks ?? 'off';
}

/**
 * The pool and the checklist (issue 41). A new run proposes DEFAULT_POOL sets of directions a remix round, so the proxies
 * elect among directions before the image model is paid (a round that makes one remix still records it as r<k>,
 * iteration-<k>/remix.png, with the elected letter: record/remixes.ts idLetterOf), and holds every remix to the brief's
 * must-haves, checked once (`pool: 1`, `checklist: off` turn them off). Both are written into run.json's settings when a
 * run starts; a record written before they were defaults lacks them and reads as it was run: no pool, no checklist.
 */
export const DEFAULT_POOL = 4;
export type ChecklistSetting = 'off' | { repeat: number };
export const DEFAULT_CHECKLIST: { repeat: number } = { repeat: 1 };

/** The pool setting of a recorded run (absent: 1, no pool). */
export function poolSettingOf(s: { pool?: number }): number {
  return s.pool ?? 1;
}

/** The checks of each remix a recorded run makes against the brief's checklist: 0 when off (absent: off). */
export function checklistRepeatOf(s: { checklist?: ChecklistSetting }): number {
  return s.checklist && s.checklist !== 'off' ? s.checklist.repeat : 0;
}

export const PERSONA_ROLES = ['system', 'user'] as const;
export type PersonaRole = (typeof PERSONA_ROLES)[number];

export const IMAGE_SIZES = ['auto', '1024x1024', '1536x1024', '1024x1536'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

export const IMAGE_QUALITIES = ['low', 'medium', 'high', 'auto'] as const;
export type ImageQuality = (typeof IMAGE_QUALITIES)[number];

/** The prompt layers a team may set (review.yaml `prompts:`). */
export interface PromptLayers {
  goal?: string;
  style?: string;
  collaborativeMove?: string;
}

/** Defaults of a new run. */
export const DISCUSSION_DEFAULTS = {
  mode: 'separate-then-together' as DiscussionMode,
  order: 'rotate' as SpeakingOrder,
  leadSpeaksLast: true,
  maxConcurrency: 4,
  hierarchy: 'flat' as Hierarchy,
  personaRole: 'system' as PersonaRole,
  temperature: 1,
  imageSize: 'auto' as ImageSize,
  imageQuality: 'medium' as ImageQuality,
};

/** How a run record written before these settings existed is read: one round-robin in file order, as it was run. */
export const LEGACY_DISCUSSION = { mode: 'together' as DiscussionMode, order: 'fixed' as SpeakingOrder };

export interface DiscussionSettings {
  mode: DiscussionMode;
  order: SpeakingOrder;
  orderSeed: number;
  lead?: string;
  leadSpeaksLast: boolean;
  maxConcurrency: number;
  hierarchy: Hierarchy;
  personaRole: PersonaRole;
  temperature?: number;
  turnsPerAgent: number;
}

/** The effective discussion settings of a recorded run (older records: as they were run). */
export function discussionOf(s: {
  turnsPerAgent: number;
  mode?: DiscussionMode;
  order?: SpeakingOrder;
  orderSeed?: number;
  lead?: string;
  leadSpeaksLast?: boolean;
  maxConcurrency?: number;
  hierarchy?: Hierarchy;
  personaRole?: PersonaRole;
  temperature?: number;
}): DiscussionSettings {
  return {
    mode: s.mode ?? LEGACY_DISCUSSION.mode,
    order: s.order ?? LEGACY_DISCUSSION.order,
    orderSeed: s.orderSeed ?? 0,
    lead: s.lead,
    leadSpeaksLast: s.leadSpeaksLast ?? DISCUSSION_DEFAULTS.leadSpeaksLast,
    maxConcurrency: s.maxConcurrency ?? DISCUSSION_DEFAULTS.maxConcurrency,
    hierarchy: s.hierarchy ?? DISCUSSION_DEFAULTS.hierarchy,
    personaRole: s.personaRole ?? DISCUSSION_DEFAULTS.personaRole,
    temperature: s.temperature,
    turnsPerAgent: s.turnsPerAgent,
  };
}

/** "a, b or c" for messages. */
export function oneOf(values: readonly string[]): string {
  return values.length <= 1 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}
