export class UsageError extends Error {}

export const USAGE = `Usage: teamfusion <command> [options]

Commands:
  validate <review>                         Check a review folder; one line per problem.
  analyze <review> [--json] [--permutations N] [--seed N]
                                            Agreement analysis of the team's rankings (no model needed).
  import <spreadsheet.csv> <review> [--force]
                                            Turn a spreadsheet export into ranking files.
  run <review> [--iterations N] [--turns N] [--feedback TEXT] [--resume RUN-ID] [--json]
                                            A full TeamFusion run against an OpenAI-compatible endpoint
                                            (OPENAI_API_KEY, OPENAI_BASE_URL).
  rerank <review> <run-id>                  Make runs/<run-id>/rerank/, the run's final candidates for the team
                                            to rank again.
  compare <review> <run-id> [--json]        Kendall's W before the run and after the re-ranking: did the team converge?

Exit codes: 0 ok, 1 invalid input or failed run, 2 usage error, 130 cancelled.
`;
