/**
 * `teamfusion rerank <review> <run-id>`: makes runs/<run-id>/rerank/, a review of the run's final candidates for the
 * team to rank again. Exit 0 made, 1 refused (run not completed, folder exists, no such run), 2 usage.
 */
import * as path from 'node:path';
import { startReRanking } from '../../core/rerank';
import { UsageError } from '../usage';
import { parseStrict } from './validate';

export async function runRerank(args: string[]): Promise<number> {
  const { positionals } = parseStrict(args);
  if (positionals.length !== 2) {
    throw new UsageError('give the review folder and the run id, e.g. teamfusion rerank samples/lumen-perfume 2026-11-21T22-40-05Z-3f9c');
  }
  const [review, runId] = positionals;
  const dir = await startReRanking(review, runId);
  const shown = path.relative(process.cwd(), dir) || dir;
  process.stdout.write(`${shown}\n`);
  process.stderr.write(
    `Made ${shown}: the final candidates of run ${runId}, ready to rank again.\n` +
      `Next: each designer writes rankings/<designer-id>.yaml there (or uses "My ranking" in the review panel),\n` +
      `then: teamfusion compare ${review} ${runId}\n`,
  );
  return 0;
}
