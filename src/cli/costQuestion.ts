/**
 * The cost question on the command line (core/llm/costQuestion.ts asks it only above its thresholds): `--yes` says yes and
 * the work is said on stderr; otherwise a terminal is asked (y/N), and without a terminal the answer is no — the command
 * then refuses in one sentence and sends nothing.
 */
import * as readline from 'node:readline';
import { costWords, type ConfirmCost } from '../core/llm/costQuestion';
import { printable } from '../core/files/reviewFiles';

export function confirmOnCli(yes: boolean): ConfirmCost {
  return async (cost) => {
    if (yes) {
      process.stderr.write(`${printable(`Sending ${costWords(cost)} (--yes).`)}\n`);
      return true;
    }
    if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await new Promise<string>((resolve) => {
        rl.on('close', () => resolve(''));
        rl.question(`${printable(`This will send ${costWords(cost)}. Go ahead? [y/N] `)}`, resolve);
      });
      return /^\s*y(es)?\s*$/i.test(answer);
    } finally {
      rl.close();
    }
  };
}
