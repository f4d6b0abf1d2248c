/**
 * What a failed request to a VS Code language model means for the user, by the error's code (vscode.LanguageModelError's
 * `code` is the name of the factory that made it: NoPermissions, NotFound, Blocked). No `vscode` import: unit tests pin
 * each kind and sentence; vscodeChat.ts hands over the code when the error is a LanguageModelError.
 */
import { ModelRequestError } from '../../core/llm/backend';
import { errorMessage } from '../../core/kernel/errors';

const PICK = '"TeamFusion: Pick Chat Model"';

/** The one sentence and kind for a failed request to the model `name`; `code` only when the error is a LanguageModelError. */
export function languageModelError(name: string, err: unknown, code?: string): ModelRequestError {
  switch (code) {
    case 'NoPermissions':
      return new ModelRequestError(
        `VS Code did not give TeamFusion permission to use ${name}, so nothing was sent; run again and allow it, or pick another model with ${PICK}.`,
        'permission',
        { said: true, cause: err },
      );
    case 'NotFound':
      return new ModelRequestError(
        `${name} is no longer available in VS Code; resume the run to continue with it when it is back, or with another model (${PICK}).`,
        'not-found',
        { said: true, cause: err },
      );
    case 'Blocked':
      return new ModelRequestError(
        `${name} refused the request (blocked, for example by a quota); resume the run later or with another model (${PICK}).`,
        'refused',
        { said: true, cause: err },
      );
    default: {
      const message = errorMessage(err)
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/[.\s]+$/, '');
      return new ModelRequestError(`${name} failed: ${message}. Resume the run to try again.`, 'failed', { said: true, cause: err });
    }
  }
}
