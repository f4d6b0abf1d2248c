/**
 * `teamfusion pin <review> <run-id> <message-id> [--as <designer-id>] [--remove] [--sync]`: pins a message so every later chat
 * prompt of the run carries it ("Pinned by Ana: …"); without --as the review's lead pins. Like say, the pin is an inbox
 * entry of that person; the run's driver takes it in. Exit 0 done, 1 refused
 * (unknown message or designer, no lead and no --as, --remove of a message that is not pinned), 2 usage.
 */
import * as path from 'node:path';
import { printable } from '../../core/kernel/text';
import { PeopleInputError, driverWords, submitPin } from '../../core/people/submit';
import { UsageError } from '../usage';
import { parseStrict } from './validate';
import { SyncExit, throughRemote } from '../personSync';

export async function runPin(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { as: { type: 'string' }, remove: { type: 'boolean' }, sync: { type: 'boolean' } });
  if (positionals.length !== 3) {
    throw new UsageError('give the review folder, the run id and the message id, e.g. teamfusion pin samples/lumen-perfume <run-id> i1-m3');
  }
  const [review, runId, message] = positionals as [string, string, string];
  const remove = values.remove === true;
  try {
    const root = path.resolve(review);
    const as = typeof values.as === 'string' ? values.as.trim() : undefined;
    const submit = () => submitPin({ reviewRoot: root, runId, message, as, remove, onNote: (line) => process.stderr.write(`${printable(line)}\n`) });
    const r = values.sync
      ? await throughRemote(root, 'pin', `TeamFusion ${runId}: ${as ?? 'the lead'} ${remove ? 'unpins' : 'pins'} ${message}`, submit)
      : await submit();
    const what = remove ? 'unpinned' : 'pinned';
    const when = values.sync
      ? `the process driving ${runId} takes it in after its next pull`
      : r.driven
        ? driverWords(r, runId)
        : `nobody drives ${runId} now, so it is taken in when the run goes on (run --resume, or a refine of a completed run)`;
    process.stderr.write(`Message ${printable(message)} ${what} (${r.file}); ${when}.\n`);
    return 0;
  } catch (err) {
    if (err instanceof SyncExit) return err.code;
    if (err instanceof PeopleInputError) {
      process.stderr.write(`teamfusion pin: ${printable(err.message)}\n`);
      return 1;
    }
    throw err;
  }
}
