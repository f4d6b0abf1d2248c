/**
 * The member's own signature setting held outside git (issue 39, item 4): the VS Code setting
 * `teamfusion.requireSignedCommits`, which the extension passes in here when it starts and whenever it changes. Git's own
 * `git config teamfusion.requireSignedCommits` is read by the door itself (door.ts). Either one asks for signatures on
 * every door this process opens; review.yaml `requireSignedCommits` may only add to them, never turn them off. The CLI
 * never sets it (its member's setting is git config), so outside the extension this is false.
 */
let ownRequireSigned = false;

/** Sets this process's member's own setting (the extension, from VS Code's `teamfusion.requireSignedCommits`). */
export function setOwnRequireSignedCommits(on: boolean): void {
  ownRequireSigned = on;
}

/** This process's member's own setting outside git config. */
export function ownRequireSignedCommits(): boolean {
  return ownRequireSigned;
}
