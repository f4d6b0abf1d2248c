/**
 * The CLI's help as data: one entry per command, what it takes, what it does, its options and the exit codes it can
 * return. The main help (`teamfusion --help`) and each `teamfusion <command> --help` are printed from it (help.ts), and
 * docs/cli.md is written from that output (scripts/cli-docs.mjs), so neither can drift from the other.
 */

/** What each exit code means (the same for every command that can return it). */
export const EXIT_MEANING: Record<number, string> = {
  0: 'ok',
  1: 'invalid input or failed',
  2: 'usage error',
  3: 'waiting for a person (say and resume)',
  130: 'cancelled',
};

export interface CommandHelp {
  name: string;
  /** The arguments after the command's name, e.g. `<review> <run-id>`. */
  args: string;
  /** One line for the main help. */
  summary: string;
  /** More lines for the command's own help (after the summary). */
  more?: string[];
  /** [flag with its value, what it does]. */
  options: [string, string][];
  exits: number[];
  /** Other names the command answers to (British spellings). */
  aliases?: string[];
}

export const COMMAND_HELP: CommandHelp[] = [
  {
    name: 'validate',
    args: '<review> [options]',
    summary: 'Check a review folder; one line per problem.',
    options: [['--json', 'One JSON object: valid, the problems, and authorship (the member files not counted, and why).']],
    exits: [0, 1, 2],
  },
  {
    name: 'analyze',
    args: '<review> [options]',
    summary: "Agreement analysis of the team's rankings (no model needed).",
    options: [
      ['--json', 'One JSON object instead of the text.'],
      ['--permutations N', 'Permutations for the permutation p (default 10000).'],
      ['--seed N', 'Seed of the permutations (reproducible).'],
    ],
    exits: [0, 1, 2],
    aliases: ['analyse'],
  },
  {
    name: 'import',
    args: '<spreadsheet.csv> <review> [options]',
    summary: 'Turn a spreadsheet export into ranking files.',
    options: [['--force', 'Replace ranking files that exist.']],
    exits: [0, 1, 2],
  },
  {
    name: 'run',
    args: '<review> [options]',
    summary: 'A full TeamFusion run against an OpenAI-compatible endpoint (OPENAI_API_KEY, OPENAI_BASE_URL).',
    options: [
      ['--iterations N', 'Rounds of the run.'],
      ['--turns N', "Turns of each designer's proxy a round."],
      ['--remixes N', 'Remixes a round, 1–4 (r1a, r1b, …; review.yaml remixesPerIteration).'],
      [
        '--pool K',
        'Directions the remix agent proposes a round, 1–8 (default 4; 1: no pool); the proxies rank them and elect the remixes before any image is paid for (review.yaml pool).',
      ],
      [
        '--checklist C',
        "Hold every remix to the brief's must-haves: on (default, each remix checked once), 2 or 3 (checked that many times) or off (review.yaml checklist).",
      ],
      ['--mode M', 'separate-then-together (default) | together | separate.'],
      ['--order O', 'Speaking order: rotate (default) | shuffle | fixed.'],
      [
        '--forks F',
        "A decision point that splits the team: auto (default) makes one remix per side of the first; ask lets the lead pick one (or none) at the round's end; off (review.yaml forks).",
      ],
      ['--seed N', 'The speaking-order seed.'],
      ['--designers a,b,…', 'A subset of the designers (2 or more).'],
      [
        '--feedback TEXT',
        "The lead's feedback; with --resume on a completed run it refines it (design: a remix round and a final pick; brief: one more round).",
      ],
      ['--resume RUN-ID', 'Go on with a stopped run, or refine a completed one (with --feedback).'],
      [
        '--task brief|design',
        'brief: the comments on the brief → one revised brief + a direct baseline (default when comments/ and no rankings/); design: the images.',
      ],
      ['--human ID', 'That designer speaks in person at their turns (repeatable).'],
      ['--guest ID', 'A review.yaml guest speaks once per iteration (repeatable).'],
      ['--no-wait', "Exit 3 at a person's turn (or the lead's fork choice), never ask."],
      [
        '--text-only',
        'The chat model cannot see images (a local model without vision): each candidate is sent as its label and what the designers wrote about it.',
      ],
      [
        '--image-base-url URL',
        'Image edits on an endpoint of their own (TEAMFUSION_IMAGE_BASE_URL; key TEAMFUSION_IMAGE_API_KEY, else the chat key). Azure: AZURE_OPENAI_*.',
      ],
      ['--sync', "Through the branch's git upstream: pull at each turn, commit + push each turn."],
      ['--sync-interval S', 'With --sync: pull at most every S seconds (10).'],
      ['--max-wait S', "A person's turn waits up to S seconds for their say (3600)."],
      ['--json', 'The record as JSON at the end.'],
      [
        '--yes',
        'Send a run of more than 100 requests or $5 (estimated) without asking (a terminal is asked y/N; without one, only with --yes).',
      ],
    ],
    exits: [0, 1, 2, 3, 130],
  },
  {
    name: 'say',
    args: '<review> <run-id> --as ID [--sync] <text…>',
    summary: 'A designer speaks in a run (@id asks them to speak next; /pass at your own turn lets your proxy speak).',
    more: [
      "Where authorship is checked (git, e-mails in review.yaml), a line said --as another member than this machine's git",
      'identity is recorded and shown as "typed on <typist>\'s machine for <member>", never as their own; with signatures',
      'required it is refused (exit 1). The same holds for pin --as and vote --as.',
    ],
    options: [
      ['--as ID', "Who speaks (their designer id, any case). For another member than this machine's git identity: typed for them."],
      ['--sync', 'Commit only your entry, pull, push.'],
    ],
    exits: [0, 1, 2],
  },
  {
    name: 'pin',
    args: '<review> <run-id> <message-id> [options]',
    summary: 'Pin a message: every later prompt of the run carries it.',
    options: [
      ['--as ID', 'Who pins it (any case; for another member: typed for them, as with say).'],
      ['--remove', 'Unpin it.'],
      ['--criterion NAME', "(no message id) Pin one of the team's criteria."],
      ['--sync', 'Commit only your entry, pull, push.'],
    ],
    exits: [0, 1, 2],
  },
  {
    name: 'vote',
    args: '<review> <run-id> --as ID [options] <decision-point> <choice>',
    summary: 'Vote on a fork (its remix id or letter); the lead closes with --close.',
    more: [
      "When all have voted, the decision joins that round's decisions; the next round keeps the chosen side's remix and sets",
      'the others aside. The lead reopens a decision with --reopen <decision-point> (kept as history; the votes are kept).',
    ],
    options: [
      ['--as ID', 'Who votes (any case). A vote typed for another member is kept marked and never counted as theirs.'],
      ['--iteration K', 'The round (default: the last round that forked).'],
      ['--close', 'The lead closes the decision point (under lead-decides, with a choice: the lead decides in person).'],
      ['--reopen', 'The lead reopens the decision of the decision point (no choice).'],
      ['--sync', "Commit only your votes file (and run.json when it decides, on the run's driver's machine only), pull, push."],
    ],
    exits: [0, 1, 2],
  },
  {
    name: 'rerank',
    args: '<review> <run-id> [options]',
    summary: 'Make runs/<run-id>/rerank/, the blind re-rank set.',
    more: [
      "The team's Borda top N options + every remix, under neutral letters A, B, C, …; a brief run: its revised brief",
      "and baseline as A.md, B.md. Then each proxy forecasts its own designer's blind answer, and one persona-free control",
      'the same (one request each, kept sealed in runs/<run-id>/forecast.json; compare shows them after the re-rank).',
    ],
    options: [
      ['--top N', 'Options of the review in the set (3); not for a brief run.'],
      ['--no-forecast', 'Make the set only: no forecasts, no request sent.'],
      ['--yes', 'Send the forecasts of more than 100 requests (or $5) without asking (the cost is said first).'],
      [
        '--text-only',
        'The chat model cannot see images (a local model without vision): each forecast gets the letters without their images.',
      ],
    ],
    exits: [0, 1, 2, 130],
  },
  {
    name: 'forecast',
    args: '<review> <run-id> [options]',
    summary: "Make a run's missing or failed proxy forecasts of its blind set (never one already sealed).",
    more: [
      'The step rerank takes once the set exists, on its own: each forecast is sealed in runs/<run-id>/forecast.json as soon as',
      'it is made; nothing to make says so and sends nothing.',
    ],
    options: [
      ['--yes', 'Send more than 100 requests (or $5), repairs counted, without asking (the cost is said first).'],
      ['--text-only', 'The chat model cannot see images: each forecast gets the letters without their images.'],
    ],
    exits: [0, 1, 2, 130],
  },
  {
    name: 'compare',
    args: '<review> <run-id> [options]',
    summary: 'Did it help? Agreement before → after (paired change, verdict), acceptance of the remixes, ratings, survey.',
    options: [['--json', 'One JSON object instead of the sentences.']],
    exits: [0, 1, 2],
  },
  {
    name: 'judge',
    args: '<review> <run-id> [options]',
    summary: 'A brief run: a model compares the revised brief with the direct baseline.',
    more: [
      'On representativeness, informativeness, neutrality and readiness for the client, each twice with the order swapped',
      "(a flip is a tie); runs/<run-id>/judge.json. A proxy for people's judgement, not a substitute.",
    ],
    options: [
      ['--json', 'One JSON object instead of the sentences.'],
      ['--force', 'Judge again although judge.json exists (else it is reused, nothing sent).'],
      ['--model M', 'The judging model.'],
    ],
    exits: [0, 1, 2, 130],
  },
  {
    name: 'criteria',
    args: '<review> [options]',
    summary: 'The criteria the team judges by (from its justifications or comments).',
    more: [
      "Each member's stance and each option's standing, every quote checked; criteria.json and criteria.md, reused until a",
      'ranking or comment changes.',
    ],
    options: [
      ['--json', 'Print criteria.json.'],
      ['--force', 'Ask again although criteria.json is up to date.'],
      ['--model M', 'The model.'],
    ],
    exits: [0, 1, 2, 130],
  },
  {
    name: 'mcp',
    args: '',
    summary: 'An MCP server on stdio: the review questions (analyze, validate, criteria, run_summary, next_steps) for agents.',
    more: [
      'Each tool takes { review, runId? }; review folders outside the folder it was started in are refused. Read-only: nothing',
      'is sent to a model and nothing is written. Add it to an agent as the command `teamfusion mcp` (docs/agents.md).',
    ],
    options: [],
    exits: [0, 2],
  },
  {
    name: 'evaluate',
    args: '<folder> [options]',
    summary: "The study's table for every review below a folder; pairs TeamFusion with the usual way within each team.",
    more: ['Scripted runs (made against the bundled scripted server) are listed apart and left out of every total.'],
    options: [
      ['--json', 'One JSON object instead of the sentences.'],
      [
        '--out DIR',
        "Write evaluation.md, evaluation.json and SVG charts to DIR (inside or outside the folder; never into a review's own folders).",
      ],
      ['--force', 'Replace those files in DIR when they exist.'],
      ['--by WHAT', 'Group every measure by mode, team-size, iteration, model, turns, remixes, forks or pool (with n per group).'],
    ],
    exits: [0, 1, 2],
  },
  {
    name: 'decide',
    args: '<review> --pick <option> [options]',
    summary: 'Record the decision of a usual-way review (condition: usual) in decision.yaml.',
    options: [
      ['--pick OPTION', "The team's pick."],
      ['--started TIME', 'When the team started (ISO time); now is when it decided.'],
    ],
    exits: [0, 1, 2],
  },
  {
    name: 'code-discussion',
    args: '<review> <run-id> [options]',
    summary: "Code every message of a run with Bales' interaction categories (runs/<run-id>/analysis.json).",
    options: [
      ['--json', 'Print analysis.json.'],
      ['--force', 'Code again although analysis.json exists.'],
      ['--batch', 'Through the Batch API.'],
      ['--yes', 'Send more than 100 requests (or $5) without asking (the cost is said first; a terminal is asked y/N).'],
      ['--poll-interval S', 'With --batch: seconds between polls (1 or more).'],
      ['--max-wait S', 'With --batch: seconds to wait for the batch.'],
    ],
    exits: [0, 1, 2, 130],
  },
];
