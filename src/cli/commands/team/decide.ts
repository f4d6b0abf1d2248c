/**
 * `teamfusion decide <review> --pick <option> [--started <time>]`: records the team's decision of a usual-way review
 * (review.yaml `condition: usual`) in decision.yaml at the review's root: the pick, when the team started (--started, else
 * the startedAt already recorded) and now as decidedAt. Validates the review first; exit 0, 1 invalid input, 2 usage.
 */
import * as path from 'node:path';
import { isIsoTime, loadDecision, writeDecision } from '../../../core/evaluation/evaluate/baseline';
import { printable } from '../../../core/kernel/text';
import { formatDiagnostic } from '../../../core/diagnostics/diagnostics';
import { loadReview } from '../../../core/review/loadReview';
import { writeLine } from '../../output';
import { UsageError, exactPositionals } from '../../usage';
import { parseStrict } from '../validate';
import { errorMessage } from '../../../core/kernel/errors';

export async function runDecide(args: string[], now: () => Date = () => new Date()): Promise<number> {
  const { positionals, values } = parseStrict(args, { pick: { type: 'string' }, started: { type: 'string' } });
  const [folder] = exactPositionals(
    positionals,
    1,
    'give the review folder, e.g. teamfusion decide reviews/poster --pick 3 --started 2026-11-24T13:00:00Z',
  );
  if (typeof values.pick !== 'string' || values.pick.trim() === '')
    throw new UsageError('--pick needs the id of the option the team chose.');
  const root = path.resolve(folder);
  const loaded = await loadReview(root, { requireRankings: false, decodeImages: false });
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (!loaded.review || errors.length) {
    for (const d of errors) writeLine(process.stderr, formatDiagnostic(d));
    return 1;
  }
  const review = loaded.review;
  if (review.config.condition !== 'usual') {
    writeLine(
      process.stderr,
      'teamfusion decide: this review is not a usual-way review; add "condition: usual" to review.yaml (a TeamFusion review is decided by its run and Commit Run).',
    );
    return 1;
  }
  const ids = review.options.map((o) => o.id);
  let startedAt = typeof values.started === 'string' ? values.started.trim() : undefined;
  if (startedAt !== undefined && !isIsoTime(startedAt)) {
    writeLine(
      process.stderr,
      `teamfusion decide: --started must be a real ISO time with a zone (a day the calendar has), like 2026-11-24T13:05:00Z (found "${printable(startedAt.slice(0, 40))}").`,
    );
    return 1;
  }
  if (startedAt === undefined) {
    const earlier = await loadDecision(root, ids);
    startedAt = earlier.decision?.startedAt;
    if (!startedAt) {
      writeLine(
        process.stderr,
        'teamfusion decide: say when the team started deciding with --started <ISO time>, e.g. --started 2026-11-24T13:00:00Z.',
      );
      return 1;
    }
  }
  try {
    const rel = await writeDecision(root, ids, { pick: values.pick.trim(), startedAt, decidedAt: now().toISOString() });
    process.stdout.write(`${printable(path.join(root, rel))}\n`);
  } catch (err) {
    writeLine(process.stderr, `teamfusion decide: ${errorMessage(err)}`);
    return 1;
  }
  return 0;
}
