export class UsageError extends Error {}

export const USAGE = `Usage: teamfusion <command> [options]

Commands:
  validate <review>                         Check a review folder; one line per problem.
  analyze <review> [--json] [--permutations N] [--seed N]
                                            Agreement analysis of the team's rankings (no model needed).
  import <spreadsheet.csv> <review> [--force]
                                            Turn a spreadsheet export into ranking files.
  run <review> [--iterations N] [--turns N] [--remixes N] [--mode M] [--order O] [--seed N] [--designers a,b,…]
      [--feedback TEXT] [--resume RUN-ID] [--json] [--yes]
                                            A full TeamFusion run against an OpenAI-compatible endpoint
                                            (OPENAI_API_KEY, OPENAI_BASE_URL). --remixes 1–4: remixes a round
                                            (r1a, r1b, …; review.yaml remixesPerIteration). --mode separate-then-together
                                            (default) | together | separate; --order rotate (default) | shuffle |
                                            fixed; --seed: the speaking-order seed; --designers: a subset (2+).
                                            A run of more than 50 requests or $5 (estimated) is asked for
                                            first (a terminal's y/N); without a terminal only with --yes.
      [--human ID]… [--guest ID]… [--no-wait]    --human: that designer speaks in person at their turns;
                                            --guest: a review.yaml guest speaks once per iteration;
                                            --no-wait: exit 3 at a person's turn, never ask.
      [--image-base-url URL]                Image edits on an endpoint of their own (TEAMFUSION_IMAGE_BASE_URL;
                                            key TEAMFUSION_IMAGE_API_KEY, else the chat key). Azure: AZURE_OPENAI_*.
      [--task brief|design]                 brief: the team's comments on the brief → one revised brief + a direct
                                            baseline (default when comments/ and no rankings/); design: the images.
      [--sync [--sync-interval S] [--max-wait S]]   --sync: through the branch's git upstream: pull at
                                            each turn (at most every S seconds, 10), commit + push each turn;
                                            a person's turn waits up to --max-wait (3600) for their say.
  say <review> <run-id> --as ID [--sync] <text…>
                                            A designer speaks in a run (@id asks them to speak next; /pass at
                                            your own turn lets your proxy speak).
  pin <review> <run-id> <message-id> [--as ID] [--remove] [--sync]
                                            Pin a message: every later prompt of the run carries it.
                                            --criterion NAME (no message id): pin one of the team's criteria.
                                            --sync (say, pin): commit only your entry, pull, push.
  vote <review> <run-id> --as ID [--iteration K] [--close] <decision-point> <choice>
                                            Vote on a fork (its remix id or letter); the lead closes with --close.
                                            When all have voted, the decision joins that round's decisions.
  rerank <review> <run-id> [--top N]        Make runs/<run-id>/rerank/, the blind re-rank set: the team's Borda top N
                                            options (3) + every remix, under neutral letters A, B, C, …; a brief
                                            run: its revised brief and baseline as A.md, B.md (no --top).
  compare <review> <run-id> [--json]        Did it help? Agreement before → after (paired change, verdict),
                                            acceptance of the remixes, ratings, survey.
  judge <review> <run-id> [--json] [--force] [--model M]
                                            A brief run: a model compares the revised brief with the direct baseline
                                            on representativeness, informativeness, neutrality and readiness for the
                                            client, each twice with the order swapped (a flip is a tie);
                                            runs/<run-id>/judge.json, reused unless --force. A proxy for people's
                                            judgement, not a substitute.
  criteria <review> [--json] [--force] [--model M]
                                            The criteria the team judges by (from its justifications or comments):
                                            each member's stance and each option's standing, every quote checked;
                                            criteria.json and criteria.md, reused until a ranking or comment changes.
  evaluate <folder> [--json] [--out DIR]    The study's table for every review below a folder; --out writes
                                            evaluation.md, evaluation.json and SVG charts. Pairs TeamFusion with
                                            the usual way within each team.
  decide <review> --pick <option> [--started <time>]
                                            Record the decision of a usual-way review (condition: usual) in
                                            decision.yaml: the pick, when the team started (ISO time) and now.
  code-discussion <review> <run-id> [--json] [--force] [--batch] [--yes] [--poll-interval S] [--max-wait S]
                                            Code every message of a run with Bales' interaction categories
                                            (runs/<run-id>/analysis.json); --batch uses the Batch API; more than
                                            50 requests (or $5) are asked for first (the cost is said): a
                                            terminal's y/N, otherwise only with --yes. --poll-interval: 1 s or more.

Exit codes: 0 ok, 1 invalid input or failed run, 2 usage error, 3 waiting for a person (say, then resume),
130 cancelled.
`;

/**
 * The usage of one command (`teamfusion <command> --help`): its lines of USAGE (the command line and its description, up
 * to the next command), then the exit codes. Undefined for a name USAGE does not list.
 */
export function commandUsage(name: string): string | undefined {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`  ${name} `));
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && lines[end] !== '' && !/^ {2}[a-z]/.test(lines[end]!)) end++;
  const exit = lines.findIndex((l) => l.startsWith('Exit codes:'));
  return `Usage: teamfusion ${lines.slice(start, end).join('\n').replace(/^ {2}/, '')}\n\n${lines.slice(exit).join('\n')}`;
}
