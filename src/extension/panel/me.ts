/**
 * Who is at the panel ("I am", issue 40): one member id per workspace, remembered in the workspace's state, used by every
 * review panel of it for rating, voting, confirming coverage and ranking. The page's own choice comes first (it may be
 * newer); this is what a panel opened afresh starts from.
 */
import type * as vscode from 'vscode';

/** workspaceState key of the member id. */
export const ME_KEY = 'teamfusion.me';

export function rememberedMe(state: vscode.Memento): string | undefined {
  const me = state.get<unknown>(ME_KEY);
  return typeof me === 'string' && me.length > 0 && me.length <= 200 ? me : undefined;
}

export function rememberMe(state: vscode.Memento, member: string | undefined): Thenable<void> {
  return state.update(ME_KEY, member || undefined);
}
