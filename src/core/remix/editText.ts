/**
 * The one renumbering of an edit's prompt (issue 38, item 2). Directions are written and kept with the discussion's labels
 * (`editingDirectionsDiscussed`: "Image 6", "Image 10 (remix r1d)", "Reference 2"); what the edit model is sent
 * (`editingDirections`) is made from them here, for every kind of edit prompt alike — a round's one remix, each proposal of
 * several, each side of a fork (its side line included), the sides people decided earlier and the line on references — so
 * that every "Image k" names the k-th image that edit carries (its inputs, then the references sent with it). A label of an
 * image the edit does not carry is said as such, never left as a number that means another image.
 */
import type { Iteration, RunRecord } from '../record/record';
import { mapLabelsForEdit, referencesForEditLine } from '../discussion/remixPrompts';
import { referencesForEdit } from './imageEdit';
import { remixOfLetter } from '../record/remixes';

/** The edit model's prompt from directions as discussed: labels renumbered to the edit's images, the references' line last. */
export function editText(
  discussed: string,
  inputs: readonly { label: string }[],
  references: readonly { label: string; note?: string }[] = [],
): { text: string; unmapped: string[] } {
  const mapped = mapLabelsForEdit(discussed, inputs, references);
  return {
    text: references.length ? `${mapped.text}\n${referencesForEditLine(inputs.length + 1, references)}` : mapped.text,
    unmapped: mapped.unmapped,
  };
}

/**
 * Every edit of round `it` not made yet gets its prompt again from its directions as discussed (its inputs: the proposal's
 * `from`, or the round's ranking for its one remix; then the cited references that fit). Records without the discussed
 * text are left as they are. Returns whether any prompt changed.
 */
export function renumberEdits(record: Pick<RunRecord, 'options' | 'references'>, it: Iteration, imageModel: string): boolean {
  if (it.final) return false;
  const label = (id: string): { label: string } => ({ label: record.options.find((o) => o.id === id)?.label ?? id });
  const refs = (inputs: number): { label: string; note?: string }[] =>
    referencesForEdit(inputs, it.references ?? [], imageModel).sent.flatMap((id) => record.references?.filter((r) => r.id === id) ?? []);
  let changed = false;
  const rewrite = (target: { editingDirections?: string; editingDirectionsDiscussed?: string }, from: readonly string[]): void => {
    if (target.editingDirectionsDiscussed === undefined) return;
    const text = editText(target.editingDirectionsDiscussed, from.map(label), refs(from.length)).text;
    changed ||= text !== target.editingDirections;
    target.editingDirections = text;
  };
  if (it.proposals?.length) {
    for (const p of it.proposals) if (!remixOfLetter(it, p.letter)) rewrite(p, p.from);
  } else if (!it.remix) rewrite(it, it.ranking ?? []);
  return changed;
}
