/**
 * Work at most `n` at a time: the one way the core bounds what runs at once (requests in flight, files looked at).
 */

/** A gate: each function given runs once fewer than `n` run; the others wait their turn, started in the order given. */
export function limiter(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  const most = Math.max(1, Math.floor(n));
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (active >= most) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next one waiting, if any.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** `fn` over `items`, at most `limit` at a time; results in the items' order. */
export function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const gate = limiter(limit);
  return Promise.all(items.map((item) => gate(() => fn(item))));
}
