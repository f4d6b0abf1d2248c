/** Natural order of ids and file names: "2" before "10", "img-2" before "img-10", case-insensitive first. */
// Made on first use: building it loads the runtime's collation data, which a command that sorts nothing should not wait for.
let collator: Intl.Collator | undefined;

export function naturalCompare(a: string, b: string): number {
  collator ??= new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
  const byNature = collator.compare(a, b);
  if (byNature !== 0) return byNature;
  // Same under the collator ("A" vs "a", "01" vs "1"): fall back to code units so the order is total and stable.
  return a < b ? -1 : a > b ? 1 : 0;
}
