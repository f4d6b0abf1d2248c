/**
 * `evaluate --by` (issue 32, item 6; issue 33): what a run is grouped by, read from its record. Every value is a string
 * (the contract's `value`), so numbers and names group alike.
 */
import type { RunRecord } from '../../record/record';
import { discussionOf } from '../../settings/discussionSettings';
import { forksOf } from '../votes/forks';

export const GROUP_BY = ['mode', 'team-size', 'iteration', 'model', 'turns', 'remixes', 'forks', 'pool'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

/** What each `--by` means, for the help and the docs' one list. */
export const GROUP_BY_WORDS: Record<GroupBy, string> = {
  mode: 'the discussion mode',
  'team-size': 'the designers taking part',
  iteration: 'the rounds the run was set to (iterations)',
  model: 'the chat model',
  turns: 'turns per proxy',
  remixes: 'remixes a round',
  forks: 'whether a round forked ("with" / "without")',
  pool: 'whether a round elected its remixes from a pool ("pooled" / "not pooled")',
};

export function isGroupBy(s: string): s is GroupBy {
  return (GROUP_BY as readonly string[]).includes(s);
}

/** The run's value for every `--by`; `teamSize` is the review's team when the run did not choose designers. */
export function groupValuesOf(record: RunRecord, teamSize: number): Record<GroupBy, string> {
  return {
    mode: discussionOf(record.settings).mode,
    'team-size': String(record.settings.designers?.length ?? teamSize),
    iteration: String(record.settings.iterations),
    model: record.settings.chatModel,
    turns: String(record.settings.turnsPerAgent),
    remixes: String(record.settings.remixesPerIteration ?? 1),
    forks: forksOf(record).length ? 'with' : 'without',
    pool: record.iterations.some((it) => it.pool?.elected.length) ? 'pooled' : 'not pooled',
  };
}
