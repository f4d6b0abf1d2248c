/**
 * The panel suites' shared set-up: the host's message dispatcher (src/extension/panel/handlers), loaded under the vscode
 * stub, and a fake panel that keeps what the dispatcher and the handlers did to it.
 */
import type { PanelActions } from '../../src/extension/panel/handlers/context';
import type { HostMessage, WebviewMessage } from '../../src/protocol/panel';
import { stubVscode } from './vscodeStub';

type Dispatch = (m: WebviewMessage, panel: PanelActions) => Promise<void>;

/** The host's dispatcher for the suite it is called in (loaded in its `before`, with `vscode` stubbed while it loads). */
export function usePanelDispatch(): Dispatch {
  let dispatch: Dispatch | undefined;
  before(() => {
    const vscode = stubVscode();
    try {
      dispatch = (require('../../src/extension/panel/handlers') as typeof import('../../src/extension/panel/handlers')).dispatch;
    } finally {
      vscode.restore();
    }
  });
  return (m, panel) => {
    if (!dispatch) throw new Error('usePanelDispatch: the dispatcher is loaded in before()');
    return dispatch(m, panel);
  };
}

/**
 * A panel whose trust is given, which keeps what it posts and what the trust was told, and notes every other thing the
 * dispatcher or a handler touches (commands, showRun, reloads, pageReady; anything else not in `extra` throws).
 */
export function fakePanel(trusted: boolean, extra: Record<string, unknown> = {}) {
  const posted: HostMessage[] = [];
  const told: string[] = [];
  const touched: string[] = [];
  const trust = { trusted: () => trusted, refused: (effect: string, action: string) => told.push(`${effect}: ${action}`) };
  const note = (what: string) => () => {
    touched.push(what);
    return Promise.resolve();
  };
  const base = {
    post: (m: HostMessage) => posted.push(m),
    trust,
    command: (name: string) => note(`command ${name}`)(),
    showRun: note('showRun'),
    reload: note('reload'),
    pageReady: note('pageReady'),
    ...extra,
  };
  const panel = new Proxy(base, {
    get(t, key: string) {
      if (key in t) return t[key as keyof typeof t];
      touched.push(key);
      throw new Error(`the handler reached panel.${key}`);
    },
  }) as unknown as PanelActions;
  return { panel, posted, told, touched };
}
