/** A mistake in how a command was called: said in one line, with where to read how to call it (exit 2). */
export class UsageError extends Error {}

type Strings<N extends number, Acc extends string[] = []> = Acc['length'] extends N ? Acc : Strings<N, [...Acc, string]>;

/**
 * A command's positional arguments when there are exactly `count` of them, typed as that many strings; any other number
 * is a UsageError whose sentence is `usage` (or, for a function, `usage(number given)`).
 */
export function exactPositionals<N extends 1 | 2 | 3 | 4>(
  positionals: readonly string[],
  count: N,
  usage: string | ((given: number) => string),
): Strings<N> {
  if (positionals.length !== count) throw new UsageError(typeof usage === 'string' ? usage : usage(positionals.length));
  return [...positionals] as Strings<N>;
}
