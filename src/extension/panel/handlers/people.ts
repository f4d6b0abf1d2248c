/** The panel's people area: a designer says something in a run, or pins (unpins) one of its messages. */
import type { RequestHandler } from './context';

export const peopleHandlers: { say: RequestHandler<'say'>; pin: RequestHandler<'pin'> } = {
  say: async (m, panel, answer) => {
    const out = await panel.services.runs.say(panel.root.fsPath, m.runId, m.as, m.text);
    answer({ type: 'peopleResult', requestId: m.requestId, ok: out.ok, message: out.message });
    if (out.ok && !panel.services.runs.isDriving(panel.root.fsPath, m.runId)) panel.reload(false);
  },
  pin: async (m, panel, answer) => {
    const out = await panel.services.runs.pin(panel.root.fsPath, m.runId, m.message, m.as, m.remove === true);
    answer({ type: 'peopleResult', requestId: m.requestId, ok: out.ok, message: out.message });
    if (out.ok && !panel.services.runs.isDriving(panel.root.fsPath, m.runId)) panel.reload(false);
  },
};
