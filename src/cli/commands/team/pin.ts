/**
 * `teamfusion pin <review> <run-id> <message-id> [--as <designer-id>] [--remove] [--sync]`: pins a message so every later chat
 * prompt of the run carries it ("Pinned by Ana: …"); without --as the review's lead pins. `pin <review> <run-id> --criterion
 * <name>` pins one of the team's criteria (criteria.json, `teamfusion criteria`) the same way. Like say, the pin is an inbox
 * entry of that person; the run's driver takes it in. Exit 0 done, 1 refused
 * (unknown message or designer, no lead and no --as, --remove of a message that is not pinned), 2 usage.
 */
import * as path from 'node:path';
import { printable } from '../../../core/kernel/text';
import { PeopleInputError, driverWords, submitCriterionPin, submitPin, type SubmitResult } from '../../../core/people/submit';
import { readCountedCriteriaFile } from '../../../core/criteria/file';
import { ReviewFileError } from '../../../core/files/reviewFiles';
import { exactPositionals } from '../../usage';
import { parseStrict } from '../validate';
import { personCommandExit, throughRemote } from '../../personSync';

/** ", typed on d1's machine for d2" when the pin was typed here for another member (issue 39); else nothing. */
function typedNote(r: SubmitResult): string {
  return r.typed !== undefined ? `, ${r.typed}` : '';
}

/** When the run takes the pin in: after its driver's next pull (--sync), from the driving process now, or when it goes on. */
function whenTakenIn(sync: boolean, r: SubmitResult, runId: string): string {
  if (sync) return `the process driving ${runId} takes it in after its next pull`;
  return r.driven
    ? driverWords(r, runId)
    : `nobody drives ${runId} now, so it is taken in when the run goes on (run --resume, or a refine of a completed run)`;
}

export async function runPin(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, {
    as: { type: 'string' },
    remove: { type: 'boolean' },
    sync: { type: 'boolean' },
    criterion: { type: 'string' },
  });
  if (values.criterion !== undefined) return pinCriterion(positionals, String(values.criterion), values);
  const [review, runId, message] = exactPositionals(
    positionals,
    3,
    'give the review folder, the run id and the message id, e.g. teamfusion pin samples/lumen-perfume <run-id> i1-m3',
  );
  const remove = values.remove === true;
  try {
    const root = path.resolve(review);
    const as = typeof values.as === 'string' ? values.as.trim() : undefined;
    const submit = () =>
      submitPin({ reviewRoot: root, runId, message, as, remove, onNote: (line) => process.stderr.write(`${printable(line)}\n`) });
    const r = values.sync
      ? await throughRemote(root, 'pin', `TeamFusion ${runId}: ${as ?? 'the lead'} ${remove ? 'unpins' : 'pins'} ${message}`, submit)
      : await submit();
    const what = remove ? 'unpinned' : 'pinned';
    const when = whenTakenIn(values.sync === true, r, runId);
    process.stderr.write(`Message ${printable(message)} ${what}${typedNote(r)} (${r.file}); ${when}.\n`);
    return 0;
  } catch (err) {
    return personCommandExit('pin', err, [PeopleInputError]);
  }
}

/** `pin <review> <run-id> --criterion <name>`: the criterion is looked up in criteria.json (by name, any case). */
async function pinCriterion(
  positionals: string[],
  name: string,
  values: { as?: unknown; remove?: unknown; sync?: unknown },
): Promise<number> {
  const [review, runId] = exactPositionals(
    positionals,
    2,
    'give the review folder and the run id with --criterion, e.g. teamfusion pin samples/lumen-perfume <run-id> --criterion "Legibility"',
  );
  const remove = values.remove === true;
  try {
    const root = path.resolve(review);
    const file = await readCountedCriteriaFile(root);
    if (!file) throw new PeopleInputError('This review has no criteria.json yet; find the criteria first: teamfusion criteria <review>.');
    const found = file.criteria.find((c) => c.name.toLowerCase() === name.trim().toLowerCase());
    if (!found)
      throw new PeopleInputError(`criteria.json has no criterion "${name}" (criteria: ${file.criteria.map((c) => c.name).join(', ')}).`);
    const criterion = { name: found.name, description: found.description.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ') };
    const as = typeof values.as === 'string' ? values.as.trim() : undefined;
    const submit = () =>
      submitCriterionPin({
        reviewRoot: root,
        runId,
        criterion,
        as,
        remove,
        onNote: (line) => process.stderr.write(`${printable(line)}\n`),
      });
    const r = values.sync
      ? await throughRemote(
          root,
          'pin',
          `TeamFusion ${runId}: ${as ?? 'the lead'} ${remove ? 'unpins' : 'pins'} the criterion ${found.name}`,
          submit,
        )
      : await submit();
    const when = whenTakenIn(values.sync === true, r, runId);
    process.stderr.write(
      `${printable(`The criterion "${found.name}" ${remove ? 'unpinned' : 'pinned'}${typedNote(r)} (${r.file}); ${when}.`)}\n`,
    );
    return 0;
  } catch (err) {
    return personCommandExit('pin', err, [PeopleInputError, ReviewFileError]);
  }
}
