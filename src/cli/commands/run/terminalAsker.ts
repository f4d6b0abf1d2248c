/** A person's turn asked in the terminal during `teamfusion run`. */
import * as readline from 'node:readline';
import { PeopleInputError, submitSay } from '../../../core/people/submit';
import { forkChoiceCheck } from '../../../core/fork/choice';
import { printable } from '../../output';

/** Asks a person for their message in the terminal; the answer goes through the inbox like any `say`. */
export class TerminalAsker {
  private rl: readline.Interface | undefined;
  constructor(private readonly root: string) {}

  ask(speaker: string, name: string, runId: string, forkChoice = false): void {
    if (!this.rl) {
      this.rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      this.rl.on('SIGINT', () => process.emit('SIGINT'));
    }
    const rl = this.rl;
    const once = (): void => {
      const question = forkChoice
        ? `${printable(name)}, which decision point should this round fork (its number, none, or /pass for the first)? `
        : `${printable(name)}, your turn (type your message, or /pass to let your proxy speak): `;
      rl.question(question, (text) => {
        submitSay({ reviewRoot: this.root, runId, as: speaker, text, isDriven: async () => true, checkAnswer: forkChoiceCheck }).catch(
          (err: unknown) => {
            process.stderr.write(`${printable(err instanceof PeopleInputError ? err.message : String(err))}\n`);
            once();
          },
        );
      });
    };
    once();
  }

  close(): void {
    this.rl?.close();
  }
}
