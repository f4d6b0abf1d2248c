/**
 * run.json — the machine-readable record of a TeamFusion run (contract §2).
 * Written atomically at round boundaries and status changes, the turns between them in the journal (journal.ts); read back to resume. Shared by the engine, the CLI, the extension and the panel.
 * Never holds a secret. Images inside recorded prompts are replaced by references (file + sha256), so every prompt is
 * recoverable from the record plus the review folder without bloating it.
 */
import * as z from 'zod';
import { discussionSettingFields } from '../settings/discussionSchema';
import { CONSENSUS_METHODS, PHASES } from '../settings/discussionSettings';
import { SETTING_BOUNDS, checklistRepeatSetting, wholeSetting } from '../settings/settingBounds';
import { UsageSchema } from '../kernel/usage';
import { AtField, CriterionNameField, CriterionTextField, EntryIdField, MessageIdField, PersonIdField, TypedByField } from './fields';

export const RUN_RECORD_VERSION = 1;

/** `waiting`: the run stopped at a turn a person took over (see `waitingFor`); `say` + resume goes on. */
export const RunStatusSchema = z.enum(['running', 'waiting', 'completed', 'failed', 'cancelled']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export { UsageSchema, type Usage } from '../kernel/usage';

export const RunSettingsSchema = z.object({
  chatModel: z.string(),
  imageModel: z.string(),
  /** Bounded like every setting (settingBounds.ts), so a hand-edited record cannot ask for hundreds of paid requests. */
  turnsPerAgent: wholeSetting('turnsPerAgent'),
  iterations: wholeSetting('iterations'),
  imageMaxSide: wholeSetting('imageMaxSide').optional(),
  /** Remixes a remix round makes (1–4); absent in records made before it existed = 1. */
  remixesPerIteration: wholeSetting('remixesPerIteration').optional(),
  /** Sets of directions the remix agent proposes a remix round (issue 41, 1–8); a new run records it (default 4), absent (older records) = 1, no pool. */
  pool: wholeSetting('pool').optional(),
  /** The brief as a checklist (issue 41): every remix checked `repeat` times against it (a new run records it, default repeat 1), or off (absent too, as in older records). */
  checklist: z.union([z.literal('off'), z.object({ repeat: checklistRepeatSetting() })]).optional(),
  /** Host of the endpoint only (no credentials, no query), for the audit trail. */
  endpoint: z.string().optional(),
  /** Host of the image-edit endpoint when it is not the chat endpoint's (never a key). */
  imageEndpoint: z.string().optional(),
  /** Who answered the chat requests: an OpenAI-compatible endpoint (default) or VS Code's language models. */
  chatProvider: z.enum(['openai', 'vscode']).optional(),
  /** Discussion design (issue 10): mode, order + seed, lead, concurrency, hierarchy, persona role, temperature, image
   * size/quality, the team's prompt layers and the designers taking part (values in discussionSettings.ts, bounds in settingBounds.ts). */
  ...discussionSettingFields,
  /** Designers who took over their proxy (`run --human`, review.yaml `humans`): at their turns the run waits for them. */
  humans: z.array(z.string()).optional(),
  /** Guests called in for the whole run (`run --guest`): each speaks once per iteration, after the designers. */
  guests: z.array(z.string()).optional(),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

export const RunOptionSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Relative to the review root ("options/4.png") or, for remixes, to the run folder's parent review ("runs/<id>/iteration-1/remix.png"). */
  file: z.string(),
  /** sha256 (hex) of the candidate's bytes when the run started (review options only; older records have none). */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type RunOption = z.infer<typeof RunOptionSchema>;

/** Who produced a message: a designer's proxy agent, the designer in person, or a guest perspective. */
export const MessageKindSchema = z.enum(['proxy', 'human', 'guest']);
export type MessageKind = z.infer<typeof MessageKindSchema>;

export const MessageSchema = z.object({
  /** Stable id `i<iteration>-m<index>` (1-based); added to older records when they are read (see messageId). */
  id: z.string().optional(),
  /** Records without it read as "proxy". */
  kind: MessageKindSchema.optional(),
  /** Designer id (or guest id for guest messages). */
  speaker: PersonIdField,
  /** 1-based scheduled turn of this speaker within the iteration; null for a message outside the schedule (a person
   * speaking up, a turn asked for by an @mention, a guest). */
  turn: z.number().int().positive().nullable(),
  content: z.string(),
  /** Which part of the round produced it: an independent first assessment, the round-robin, or the separate mode. */
  phase: z.enum(PHASES).optional(),
  /** A person's "/pass" at their own turn: their proxy speaks that turn instead. */
  pass: z.boolean().optional(),
  /** Ids named with @ in a person's message, in the order named: they speak next (each once: recordCheck.ts). */
  mentions: z.array(PersonIdField).optional(),
  /** The message whose @mention asked for this turn. */
  replyTo: z.string().optional(),
  /** The inbox entry a person's message came from (so a message taken in twice after a crash is kept once). */
  entry: EntryIdField.optional(),
  /** (issue 39) A person's message typed on someone else's machine for them: who typed it (a member id, or the git e-mail
   * of a machine that is no member's). Shown as "typed on <typist>'s machine for <speaker>", never as the speaker's own. */
  typedBy: TypedByField.optional(),
  /** Id of the prompt in `prompts` that produced this message. */
  promptId: z.string().optional(),
  at: z.string().optional(),
  /** The engine stopped this answer at its length limit (finish_reason "length"): the content is what came before. */
  cut: z.literal(true).optional(),
  /** Citations (an "Image k", an option or reference id, a member's name) the round did not show, as written. */
  ungrounded: z.array(z.string()).optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export const DecisionPointSchema = z.object({
  question: z.string(),
  /** The mutually exclusive preferences, each with who holds it. */
  positions: z.array(z.object({ position: z.string(), heldBy: z.array(z.string()) })),
});
export type DecisionPoint = z.infer<typeof DecisionPointSchema>;

/** The side of one decision point a fork takes (issue 33, contract §7): `decisionPoint` is 1-based in its round's decisionPoints. */
/** One check of a remix against one checklist item (issue 41); `agreement` with repeated checks: the share that gave `result`. */
export const CHECK_RESULTS = ['pass', 'fail', 'unclear'] as const;
export const CheckSchema = z.object({
  item: z.string(),
  result: z.enum(CHECK_RESULTS),
  reason: z.string(),
  agreement: z.number().min(0).max(1).optional(),
});
export type Check = z.infer<typeof CheckSchema>;

/** The brief's must-haves (issue 41), each with its verbatim quote found in brief.md; `dropped`: items whose quote was not found. */
export const ChecklistSchema = z.object({
  items: z.array(z.object({ id: z.string(), text: z.string(), quote: z.string(), verified: z.literal(true) })).max(20),
  repeat: checklistRepeatSetting(),
  dropped: z
    .array(z.object({ text: z.string(), quote: z.string() }))
    .max(20)
    .optional(),
});
export type Checklist = z.infer<typeof ChecklistSchema>;

export const ForkSideSchema = z.object({ question: z.string(), position: z.string(), decisionPoint: z.number().int().min(1).max(100) });
export type ForkSide = z.infer<typeof ForkSideSchema>;

export const RemixSchema = z.object({
  /** "r1", "r2", … (several a round: "r1a", "r1b", …) */
  id: z.string(),
  /** Relative to the run folder: "iteration-1/remix.png" (several a round: "iteration-1/remix-a.png", …). */
  file: z.string(),
  /** Several remixes a round: the letter of the proposal it was made from ("a", "b", …). */
  letter: z
    .string()
    .regex(/^[a-z]$/)
    .optional(),
  /** Candidate ids that went into the edit, best first. */
  from: z.array(z.string()).optional(),
  /** Estimated cost of this image edit (price table × tokens reported, or estimated from size and quality). */
  costUsd: z.number().nonnegative().optional(),
  /** Reference ids sent to the edit as extra input images, after the candidates (issue 19). */
  references: z.array(z.string()).optional(),
  /** Cited references left out because the edit endpoint takes no more input images. */
  referencesDropped: z.array(z.string()).optional(),
  /** A fork remix (issue 33): the side of one decision point it takes (`decisionPoint`: 1-based in the round's decisionPoints). */
  fork: ForkSideSchema.optional(),
  /** The brief as a checklist (issue 41): this remix checked against every item of the run's checklist. */
  checks: z.array(CheckSchema).max(20).optional(),
  /**
   * Checked more than once (`checklist: { repeat: 2+ }`): each repeat made so far, saved as it is made so a resume never asks
   * for one again; once every repeat is made they are combined into `checks` and this goes.
   */
  checksMade: z.array(z.array(CheckSchema).max(20)).max(3).optional(),
});

export type Remix = z.infer<typeof RemixSchema>;

/**
 * Several remixes a round (issue 19): one of the remix agent's proposals, each its own image edit. `from` are the candidates
 * it combines (best first, the edit's input images); `editingDirections` the four labelled parts renumbered for the edit
 * model, `editingDirectionsDiscussed` the same with the discussion's labels.
 */
export const ProposalSchema = z.object({
  letter: z.string().regex(/^[a-z]$/),
  /** What this proposal sets out to do, in a few words ("combines the top two", "pushes the favourite further"). */
  idea: z.string().optional(),
  from: z.array(z.string()).min(1),
  editingDirections: z.string(),
  editingDirectionsDiscussed: z.string().optional(),
  /** A fork (issue 33): the side this proposal takes; its remix records the same. */
  fork: ForkSideSchema.optional(),
});
export type Proposal = z.infer<typeof ProposalSchema>;

/** A brief review (issue 17): how one member's key point fares in the revised brief. */
export const COVERAGE_STATUSES = ['kept', 'changed', 'left-out'] as const;
export const CoverageSchema = z.object({
  /** Designer id of the member whose point it is. */
  designer: z.string(),
  point: z.string(),
  status: z.enum(COVERAGE_STATUSES),
  /** Where the revised brief carries it (a short quote); none for left-out. */
  quote: z.string().optional(),
  /** Whether the quote was found in the revised brief (folded: whitespace, case, quotes); absent on left-out entries. */
  verified: z.boolean().optional(),
});
export type Coverage = z.infer<typeof CoverageSchema>;

/** A brief review's round: the revised brief (file relative to the run folder) and what the remix agent reported. */
export const BriefRoundSchema = z.object({
  /** "iteration-<k>/brief.md". */
  file: z.string(),
  agreements: z.array(z.string()),
  /** Points still in dispute, each with who holds which side. */
  disagreements: z.array(DecisionPointSchema),
  tradeOffs: z.array(z.string()),
  /** Open questions for the client. */
  openQuestions: z.array(z.string()),
  coverage: z.array(CoverageSchema),
  /** sha256 of the file as written (older records have none): a file changed since is refused by its readers. */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** Forks (issue 33): the contested passage written each way, "iteration-<k>/fork-<letter>.md", in letter order. */
  forks: z
    .array(
      z.object({
        letter: z.string().regex(/^[a-d]$/),
        file: z.string(),
        fork: ForkSideSchema,
        sha256: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .optional(),
      }),
    )
    .max(4)
    .optional(),
});
export type BriefRound = z.infer<typeof BriefRoundSchema>;

/**
 * A remix round's pool (issue 41): the remix agent's candidate directions (lettered a, b, …, with the discussion's labels),
 * each proxy's ranking of their letters (best first), the letters Schulze elected over those rankings with the members'
 * weights (best first; each became the remix with that letter), the pool's diversity and whether it was asked again.
 */
export const PoolSchema = z.object({
  candidates: z
    .array(
      z.object({
        letter: z.string().regex(/^[a-z]$/),
        editingDirections: z.string(),
        from: z.array(z.string()).min(1),
        differs: z.string(),
      }),
    )
    .min(1)
    .max(SETTING_BOUNDS.pool.max),
  rankings: z.record(z.string(), z.array(z.string().regex(/^[a-z]$/))),
  elected: z.array(z.string().regex(/^[a-z]$/)),
  method: z.literal('schulze'),
  diversity: z.number().min(0).max(1),
  reasked: z.boolean(),
  /** Members whose ranking was no permutation of the letters even after its repair: left out of the election, with why. */
  leftOut: z.array(z.object({ member: z.string(), reason: z.string() })).optional(),
});
export type Pool = z.infer<typeof PoolSchema>;

export const IterationSchema = z.object({
  index: z.number().int().positive(),
  candidates: z.array(z.string()),
  feedback: z.string().optional(),
  /** True for the closing discussion that only picks one (no remix). */
  final: z.boolean().optional(),
  messages: z.array(MessageSchema),
  ranking: z.array(z.string()).optional(),
  editingDirections: z.string().optional(),
  /** (engine, additive) The directions as the remix agent wrote them, with the discussion's labels ("Image 4"); `editingDirections`
   * is the same text renumbered for the edit model ("Image 1" = first input). */
  editingDirectionsDiscussed: z.string().optional(),
  agreements: z.array(z.string()).optional(),
  disagreements: z.array(z.string()).optional(),
  decisionPoints: z.array(DecisionPointSchema).optional(),
  /** (remix agent) Per designer id, the candidate their proxy backed last in this round; null = none (stance, see core/analysis). */
  backed: z.record(z.string(), z.string().nullable()).optional(),
  remix: RemixSchema.optional(),
  /** Several remixes a round: the remix agent's proposals, in letter order (a round with one remix has none). */
  proposals: z.array(ProposalSchema).optional(),
  /** A pooled remix round (issue 41): the directions proposed, the proxies' rankings and the elected (proposals are the elected). */
  pool: PoolSchema.optional(),
  /**
   * (issue 41) Why the round's pool was not usable (no valid proposal after its repairs, or not answered), so the round
   * asked for one set of directions without a pool; saved before that request, so a resume never asks for the pool again.
   */
  poolFellBack: z.string().optional(),
  /** Several remixes a round: the remixes made so far, in letter order; a proposal without its remix is still to be made. */
  remixes: z.array(RemixSchema).optional(),
  /** (remix agent) Reference ids it cited for the edit (an enum of the run's references): they go to the edit after the candidates. */
  references: z.array(z.string()).optional(),
  /** The remix agent's short reason for each candidate it ranked, in ranking order. */
  reasons: z.array(z.object({ candidate: z.string(), reason: z.string() })).optional(),
  /** Under `hierarchy: lead-decides`: how each decision point of this round was settled, and by whom. */
  decisions: z
    .array(
      z.object({
        question: z.string(),
        decision: z.string(),
        reason: z.string().optional(),
        /** Designer id of the lead, or "team" when every member voted. */
        by: z.string(),
        /** Whether the lead's proxy or the lead in person (or the team's vote) decided. */
        via: z.enum(['proxy', 'human']),
        at: z.string().optional(),
        /** A vote on a fork (issue 33): who voted, and the votes per position. */
        voters: z.array(z.string()).max(100).optional(),
        counts: z.record(z.string(), z.number().int().min(0)).optional(),
        /** (issue 38) The lead reopened it: it no longer binds later rounds and the team may decide again; kept as history. */
        reopened: z.object({ by: z.string(), at: z.string() }).optional(),
      }),
    )
    .optional(),
  /** (issue 38) The remixes of the sides not chosen on an earlier round's fork, left out of this round's candidates and of
   * every later round's (and never the final pick), with the decision that set them aside. */
  setAside: z.array(z.object({ id: z.string(), question: z.string(), decidedIn: z.number().int().positive() })).optional(),
  /** Why the iteration stopped, in words, when the run failed here. */
  error: z.string().optional(),
  /** (task brief) The revised brief of this round and the remix agent's report. */
  brief: BriefRoundSchema.optional(),
});
export type Iteration = z.infer<typeof IterationSchema>;

/** A chat content part as recorded: text, or an image reference instead of the data URL actually sent. */
export const RecordedPartSchema = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('image'),
    /** Relative to the review root. */
    file: z.string(),
    label: z.string().optional(),
    /** sha256 of the exact bytes sent (after resizing). */
    sha256: z.string(),
    mime: z.string(),
    detail: z.string().optional(),
  }),
]);

export const RecordedMessageSchema = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  content: z.union([z.string(), z.array(RecordedPartSchema)]),
  name: z.string().optional(),
});

export type RecordedMessage = z.infer<typeof RecordedMessageSchema>;

export const PromptRecordSchema = z.object({
  id: z.string(),
  iteration: z.number().int().positive(),
  kind: z.enum([
    'proxy-turn',
    'guest-turn',
    'remix',
    'remix-repair',
    'image-edit',
    'lead-decision',
    'baseline',
    'forecast',
    'pool-reask',
    'pool-ranking',
    'checklist',
    'check',
  ]),
  /** Designer id for proxy turns and forecasts (none for the persona-free control forecast), guest id for guest turns. */
  speaker: z.string().optional(),
  model: z.string(),
  at: z.string(),
  /** Chat calls recorded by older versions: the messages exactly as sent (images as references), in full. */
  messages: z.array(RecordedMessageSchema).optional(),
  /** Chat calls: the first `messages` messages of an earlier prompt (a proxy turn repeats the one before it, plus a line)… */
  base: z.object({ prompt: z.string(), messages: z.number().int().positive() }).optional(),
  /** …followed by these lines of runs/<id>/prompts.jsonl, as ranges [first, count] (promptParts.ts rebuilds the messages). */
  parts: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().positive()])).optional(),
  /** sha256 of the rebuilt messages (JSON), checked when a prompt is rebuilt from its parts. */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** The JSON schema sent as response_format, for remix calls. */
  responseSchema: z.unknown().optional(),
  /** Image edits: the prompt and the input files. */
  prompt: z.string().optional(),
  inputs: z.array(z.object({ file: z.string(), sha256: z.string(), mime: z.string() })).optional(),
  /** Image edits: the size and quality asked for. */
  size: z.string().optional(),
  quality: z.string().optional(),
  /** Chat calls: the temperature sent. */
  temperature: z.number().optional(),
  usage: UsageSchema.partial().optional(),
  /** Raw model output when it was rejected (invalid JSON, schema mismatch), for audit. */
  rejectedOutput: z.string().optional(),
  error: z.string().optional(),
});
export type PromptRecord = z.infer<typeof PromptRecordSchema>;

export const WaitingForSchema = z.object({
  speaker: z.string(),
  iteration: z.number().int().positive(),
  /** The speaker's scheduled turn number in that iteration, as in the messages' `turn`. */
  turn: z.number().int().positive(),
  /** Forks (issue 33, `forks: ask`): the lead is asked which decision point to fork, not for a turn of the discussion. */
  forkChoice: z.literal(true).optional(),
});
export type WaitingFor = z.infer<typeof WaitingForSchema>;

export const PinSchema = z.object({
  /** Message id (`i1-m3`). */
  message: MessageIdField,
  /** Designer id of the person who pinned it. */
  by: PersonIdField,
  at: AtField,
  /** (issue 39) Typed on someone else's machine for `by`: who typed it. */
  typedBy: TypedByField.optional(),
});
export type Pin = z.infer<typeof PinSchema>;

/** A criterion of the team (issue 34) as a run carries it: offered at the start, or pinned by a member. */
export const CriterionRefSchema = z.strictObject({ name: CriterionNameField, description: CriterionTextField });
export const RunCriteriaSchema = z.strictObject({
  /** The most controversial criteria of a current criteria.json when the run started: the points to settle. */
  offered: z.array(CriterionRefSchema).max(12).optional(),
  /** Criteria members pinned (`pin --criterion`): every later prompt carries them. Each name once. */
  pinned: z
    .array(CriterionRefSchema.extend({ by: PersonIdField, at: AtField, typedBy: TypedByField.optional() }))
    .max(12)
    .refine((xs) => new Set(xs.map((x) => x.name.toLowerCase())).size === xs.length, 'names a criterion twice')
    .optional(),
});
export type RunCriteria = z.infer<typeof RunCriteriaSchema>;

/** What a run works on: candidate designs (the first release) or the brief itself (issue 17). Absent = design. */
export const RUN_TASKS = ['design', 'brief'] as const;
export type RunTaskKind = (typeof RUN_TASKS)[number];

/** One part of a run's endpoints: the host that answered (null when there is none, e.g. VS Code's models) and whether it was the scripted server. */
const EndpointPartSchema = z.object({ host: z.string().max(300).nullable(), scripted: z.boolean() }).strict();

export const RunRecordSchema = z.object({
  version: z.literal(RUN_RECORD_VERSION).default(RUN_RECORD_VERSION),
  id: z.string(),
  /** Records without it are design runs. */
  task: z.enum(RUN_TASKS).optional(),
  status: RunStatusSchema,
  startedAt: z.string(),
  updatedAt: z.string(),
  settings: RunSettingsSchema,
  /** The review's options and their prompt labels ("Image 1" …), plus remixes as they appear. */
  options: z.array(RunOptionSchema),
  /** The review's reference gallery when the run started (references/<id>.<ext>, "Reference 1" …): shown, never ranked. */
  references: z.array(RunOptionSchema.extend({ note: z.string().max(1000).optional() })).optional(),
  iterations: z.array(IterationSchema),
  finalPick: z.string().optional(),
  usage: UsageSchema,
  prompts: z.array(PromptRecordSchema),
  /** Kendall's W of the team's own rankings when the run started (unweighted, tie-corrected). */
  kendallW: z.number().optional(),
  /**
   * The team's own consensus when the run started (weights count): weighted Borda best first, Schulze tiers, whether they
   * differ (and the sentence saying how), and `method`, the one the remix agent falls back on (review.yaml `consensus`).
   */
  consensus: z
    .object({
      method: z.enum(CONSENSUS_METHODS),
      borda: z.array(z.string().max(200)).max(100),
      schulze: z.array(z.array(z.string().max(200)).max(100)).max(100),
      differsFromBorda: z.boolean(),
      sentence: z.string().max(2000).optional(),
    })
    .optional(),
  /** Why the run failed or was cancelled, in words. */
  error: z.string().optional(),
  /** (evaluation) When the last re-ranking of the blind re-rank set was saved through the panel (ISO time). */
  rerankedAt: z.string().optional(),
  /** (evaluation) sha256 of rerank/key.json as `rerank` wrote it: a key changed since is refused by its readers. */
  rerankKeySha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** (evaluation) sha256 of forecast.json's content as `rerank` wrote it (forecast/forecastFile.ts): a forecast changed since is refused. */
  forecastSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** (evaluation) When the run was staged with Commit Run (ISO time). */
  committedAt: z.string().optional(),
  /** Set while status is "waiting": whose scheduled turn the run waits for. */
  waitingFor: WaitingForSchema.optional(),
  /** Messages people pinned; every later chat prompt carries them. */
  pins: z.array(PinSchema).optional(),
  /** The team's criteria in this run (issue 34): offered at the start, pinned by members. */
  criteria: RunCriteriaSchema.optional(),
  /** The brief as a checklist (issue 41): its must-haves, extracted once a run, each quote found in brief.md. */
  checklist: ChecklistSchema.optional(),
  /**
   * (task brief) The direct baseline: one request for a revision from the brief and all comments, written to
   * runs/<id>/baseline.md. Its prompt is in `prompts` (kind "baseline"); its usage is kept here, apart from the run's.
   */
  baseline: z
    .object({
      file: z.literal('baseline.md'),
      promptId: z.string(),
      usage: UsageSchema.partial().optional(),
      costUsd: z.number().nonnegative().optional(),
      cut: z.literal(true).optional(),
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    })
    .optional(),
  /**
   * (contract §7) Made against the bundled scripted server (`npm run demo`, `npm run scripted-server`): its answers are canned,
   * not a model's. Set once any answer of the run came from it, never unset (kept through resume and refine); such a run is
   * labelled everywhere and left out of every total (compare, evaluate, the panel).
   */
  scripted: z.literal(true).optional(),
  /**
   * (contract §8) Where the run's answers came from, part by part (endpoints.ts): the chat, the image edits (when the run
   * made any), the judge (when `judge` ran). `scripted` above is set only when every part here is scripted.
   */
  endpoints: z
    .object({ chat: EndpointPartSchema, images: EndpointPartSchema.optional(), judge: EndpointPartSchema.optional() })
    .strict()
    .optional(),
  /** The ids (file names without .json) of the inbox entries this record took in, in order: an entry is never taken twice. */
  takenIn: z.array(EntryIdField).optional(),
});

/** A record's task (older records read as design runs). */
export function taskOf(record: Pick<RunRecord, 'task'>): RunTaskKind {
  return record.task ?? 'design';
}
export type RunRecord = z.infer<typeof RunRecordSchema>;

/** THE message-id rule: the index-th message (1-based) of iteration `iteration` is `i<iteration>-m<index>`. */
export function messageId(iteration: number, index: number): string {
  return `i${iteration}-m${index}`;
}

/** Gives every message its id and kind where an older record left them out (in place; returns the record). */
export function normaliseMessages<T extends { iterations: { index: number; messages: Message[] }[] }>(record: T): T {
  for (const it of record.iterations) {
    it.messages.forEach((m, i) => {
      if (!m.id) m.id = messageId(it.index, i + 1);
      if (!m.kind) m.kind = 'proxy';
    });
  }
  return record;
}

/** Every message of a run with its iteration, in order. */
export function allMessages(record: Pick<RunRecord, 'iterations'>): { iteration: number; message: Message }[] {
  return record.iterations.flatMap((it) => it.messages.map((message) => ({ iteration: it.index, message })));
}
