/**
 * The panel's loads, one at a time. Files change in bursts (a vote written by the CLI: the vote file, then run.json,
 * result.md and transcript.md), and each change schedules a load. Two loads side by side could finish out of order and
 * leave the panel showing what the older one read; here a load starts only once the one before it has finished, so the
 * last to start reads after the last change and is the last to be shown. Loads asked for while one waits its turn join
 * it (a full load if any of them asked for one).
 */
export class SerialLoads {
  private tail: Promise<void> = Promise.resolve();
  private waiting: { all: boolean; done: Promise<void> } | undefined;

  private running = 0;

  constructor(private readonly load: (all: boolean) => Promise<void>) {}

  /** Whether a load is in flight or waiting its turn. */
  get busy(): boolean {
    return this.running > 0 || this.waiting !== undefined;
  }

  /** Loads after the load in flight (if any); resolves when this load (or the waiting one it joined) has finished. */
  request(all: boolean): Promise<void> {
    if (this.waiting) {
      this.waiting.all ||= all;
      return this.waiting.done;
    }
    const next: { all: boolean; done: Promise<void> } = { all, done: Promise.resolve() };
    next.done = this.tail.then(async () => {
      this.waiting = undefined;
      this.running++;
      try {
        await this.load(next.all);
      } finally {
        this.running--;
      }
    });
    this.waiting = next;
    // A failed load must not stop the ones after it (the load itself reports its failure).
    this.tail = next.done.catch(() => undefined);
    return next.done;
  }
}
