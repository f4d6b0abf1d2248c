/** A step's warning: one line in the log (the terminal, the Output channel) and a notice for the panel, said once in each. */
import type { StepContext } from './context';

export function warn(ctx: Pick<StepContext, 'log' | 'emit' | 'record'>, line: string): void {
  ctx.log(`warning: ${line}`);
  ctx.emit({ type: 'notice', runId: ctx.record.id, level: 'warning', message: line, logged: true });
}
