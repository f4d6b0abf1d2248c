/** A mistake in how a command was called: said in one line, with where to read how to call it (exit 2). */
export class UsageError extends Error {}
