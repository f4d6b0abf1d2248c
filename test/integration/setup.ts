/**
 * The set-up the integration suites share inside the extension host: TeamFusion activated, and copies of the sample
 * review in the open workspace (without runs/), removed again by the suite.
 */
import * as assert from 'node:assert/strict';
import { cpSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';

export const SAMPLE = 'lumen-perfume';

/** What teamfusion.internal.describeReviewsTree answers (a plain copy of the Reviews tree). */
export type { TreeSnapshot } from '../../src/extension/foundation/reviewsTree';

/** Activates TeamFusion (it is loaded under development). */
export async function activateTeamFusion(): Promise<void> {
  const ext = vscode.extensions.getExtension('teamfusion.teamfusion');
  assert.ok(ext, 'the extension is loaded');
  await ext.activate();
}

/** The open workspace folder. */
export function workspaceFolder(): string {
  const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(ws, 'a workspace folder is open');
  return ws;
}

/** The sample review: the prepared workspace's copy when there is one, else the repository's. */
export function sampleDir(): string {
  const ws = process.env.TEAMFUSION_IT_WORKSPACE;
  if (ws && existsSync(join(ws, SAMPLE, 'brief.md'))) return join(ws, SAMPLE);
  const repo = process.env.TEAMFUSION_REPO ?? resolve(__dirname, '..', '..', '..');
  return join(repo, 'samples', SAMPLE);
}

/** Copies the sample review without its runs/ to `dest`; `dest`. */
export function copySampleTo(dest: string): string {
  const sample = sampleDir();
  cpSync(sample, dest, { recursive: true, filter: (src) => !src.startsWith(join(sample, 'runs')) });
  return dest;
}
