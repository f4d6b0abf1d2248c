/**
 * The foundation in a real extension host: commands, the Reviews view, live diagnostics, Validate Review,
 * New Review and Import from CSV. The workspace is prepared by scripts/code-server/workspace.mjs (a copy of the
 * sample review plus a broken copy, described in .teamfusion-it.json).
 */
import * as assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../support/waitFor';
import { activateTeamFusion, type TreeSnapshot } from './setup';

interface WorkspaceInfo {
  sample: string;
  broken: string;
  brokenFile: string;
  brokenLine: number;
  options: string[];
  /** A folder VS Code's file watcher leaves out (files.watcherExclude in the workspace's settings). */
  unwatched: string;
}

interface ValidateOutcome {
  errors: number;
  warnings: number;
  diagnostics: { file: string; line: number; message: string; severity: string }[];
}

interface ImportOutcome {
  written: string[];
  skipped: string[];
  diagnostics: { severity: string; message: string }[];
}

const ws = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const info = (): WorkspaceInfo => JSON.parse(readFileSync(join(ws(), '.teamfusion-it.json'), 'utf8')) as WorkspaceInfo;

function ourDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'TeamFusion');
}

/** Copies the sample review to a new folder of the workspace (without runs/). */
function copySample(name: string): string {
  const dest = join(ws(), name);
  rmSync(dest, { recursive: true, force: true });
  cpSync(join(ws(), info().sample), dest, { recursive: true });
  rmSync(join(dest, 'runs'), { recursive: true, force: true });
  return dest;
}

describe('foundation', function () {
  this.timeout(300_000);

  before(async () => {
    await activateTeamFusion();
  });

  it('registers the review commands', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const c of [
      'teamfusion.newReview',
      'teamfusion.validateReview',
      'teamfusion.importRankings',
      'teamfusion.refreshReviews',
      'teamfusion.showLog',
    ]) {
      assert.ok(all.has(c), `${c} is registered`);
    }
  });

  it('lists the sample review in the Reviews view with its brief, options and designers', async () => {
    const { sample, options } = info();
    const review = await waitFor('the sample review in the tree', async () => {
      const roots = await vscode.commands.executeCommand<TreeSnapshot[]>('teamfusion.internal.describeReviewsTree', 3);
      return roots.find((r) => r.description?.startsWith(sample));
    });
    assert.equal(review.contextValue, 'review');
    // Title from review.yaml; the broken copy has the same title, so the folder name tells them apart.
    assert.equal(review.label, `Lumen perfume — launch hero banner (${sample})`);
    const labels = (review.children ?? []).map((c) => c.label);
    assert.deepEqual(labels, ['Brief', 'Options', 'Designers', 'Runs']);
    const optionItems = review.children!.find((c) => c.label === 'Options')!.children ?? [];
    assert.equal(optionItems.length, options.length);
    assert.equal(optionItems[0]!.description?.startsWith('Image 1'), true);
    const designers = review.children!.find((c) => c.label === 'Designers')!.children ?? [];
    const rankingFiles = readdirSync(join(ws(), sample, 'rankings')).filter((f) => /\.(ya?ml|json)$/.test(f));
    assert.equal(designers.length, rankingFiles.length);
    const ana = designers.find((d) => d.label === 'Ana Ruiz');
    assert.ok(ana, 'Ana Ruiz is listed');
    assert.equal(ana.description, 'Art Director · weight 2');
    assert.match(ana.tooltip ?? '', /Weight 2/);
    const runs = review.children!.find((c) => c.label === 'Runs')!;
    assert.equal(runs.description, '0');
  });

  it('lists runs newest first with their status, as run items carrying { reviewRoot, runId }', async () => {
    const root = copySample('runs-check');
    const write = (id: string, body: string) => {
      mkdirSync(join(root, 'runs', id), { recursive: true });
      writeFileSync(join(root, 'runs', id, 'run.json'), body);
    };
    // Records are validated before they are shown (runs/<id>/run.json:<line>:<col>); build two real ones from the sample's options.
    const options = readdirSync(join(root, 'options'))
      .filter((n) => /\.(png|jpe?g|webp)$/i.test(n))
      .map((n) => ({ id: n.replace(/\.[^.]+$/, ''), file: `options/${n}` }))
      .map((o, i) => ({ ...o, label: `Image ${i + 1}` }));
    const record = (id: string, status: string, iterations: number, extra: Record<string, unknown>) =>
      JSON.stringify({
        version: 1,
        id,
        status,
        startedAt: '2026-11-21T10:00:00.000Z',
        updatedAt: '2026-11-21T10:05:00.000Z',
        settings: { chatModel: 'gpt-4o', imageModel: 'gpt-image-1', turnsPerAgent: 2, iterations: 3 },
        options,
        iterations: Array.from({ length: iterations }, (_, k) => ({ index: k + 1, candidates: options.map((o) => o.id), messages: [] })),
        usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 0 },
        prompts: [],
        ...extra,
      });
    const pick = options[0]!.id;
    write('2026-11-21T10-00-00Z-aaaa', record('2026-11-21T10-00-00Z-aaaa', 'completed', 2, { finalPick: pick }));
    write('2026-11-21T11-00-00Z-bbbb', record('2026-11-21T11-00-00Z-bbbb', 'failed', 1, { error: 'The endpoint refused the key.' }));
    write('2026-11-21T12-00-00Z-cccc', '{ this is not json');
    write('2026-11-21T13-00-00Z-dddd', record('../../elsewhere', 'failed', 1, {}));
    await vscode.commands.executeCommand('teamfusion.refreshReviews');
    const runs = await waitFor('the runs of runs-check', async () => {
      const roots = await vscode.commands.executeCommand<TreeSnapshot[]>('teamfusion.internal.describeReviewsTree', 3);
      const review = roots.find((r) => r.description?.startsWith('runs-check'));
      const group = review?.children?.find((c) => c.label === 'Runs');
      return group?.children?.length === 4 ? group.children : undefined;
    });
    assert.deepEqual(
      runs.map((r) => r.label),
      ['2026-11-21T13-00-00Z-dddd', '2026-11-21T12-00-00Z-cccc', '2026-11-21T11-00-00Z-bbbb', '2026-11-21T10-00-00Z-aaaa'],
    );
    assert.deepEqual(
      runs.map((r) => r.contextValue),
      ['run', 'run', 'run', 'run'],
    );
    assert.equal(runs[0]!.description, 'broken record');
    assert.match(
      runs[0]!.tooltip ?? '',
      /runs\/2026-11-21T13-00-00Z-dddd\/run\.json:\d+:\d+: error: The record's id "\.\.\/\.\.\/elsewhere" is not the name of its folder/,
    );
    assert.equal(runs[1]!.description, 'broken record');
    assert.match(runs[1]!.tooltip ?? '', /run\.json:1:3: error: This is not valid JSON/);
    assert.equal(runs[2]!.description, 'failed · 1 iteration');
    assert.match(runs[2]!.tooltip ?? '', /refused the key/);
    assert.equal(runs[3]!.description, `completed · 2 iterations · pick ${pick}`);
    assert.deepEqual(
      runs.map((r) => r.icon),
      ['warning', 'warning', 'error', 'pass'],
    );
    assert.equal(runs[3]!.reviewRoot, root);
    assert.equal(runs[3]!.runId, '2026-11-21T10-00-00Z-aaaa');
  });

  it('shows a broken ranking file in the Problems panel at the right place', async () => {
    const { broken, brokenFile, brokenLine } = info();
    const uri = vscode.Uri.file(join(ws(), broken, brokenFile));
    const diags = await waitFor('diagnostics on the broken ranking file', () => {
      const d = ourDiagnostics(uri);
      return d.length > 0 ? d : undefined;
    });
    const unknown = diags.find((d) => d.message.includes('no-such-option'));
    assert.ok(unknown, `a diagnostic names the unknown option; got: ${diags.map((d) => d.message).join(' | ')}`);
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(unknown.range.start.line, brokenLine - 1, '1-based line 4 → 0-based 3');
    assert.ok(unknown.range.end.character > unknown.range.start.character, 'the range covers text');
  });

  it('updates diagnostics when a ranking file breaks on disk and clears them when it is fixed', async () => {
    const root = copySample('live-check');
    const file = join(root, 'rankings', 'ben.yaml');
    const uri = vscode.Uri.file(file);
    const good = readFileSync(file, 'utf8');
    await waitFor('the new review to be indexed', async () => {
      const roots = await vscode.commands.executeCommand<TreeSnapshot[]>('teamfusion.internal.describeReviewsTree', 1);
      return roots.some((r) => r.description?.startsWith('live-check'));
    });
    writeFileSync(file, good.replace('option: "3"', 'option: "33"'));
    const lineOf33 = good.split('\n').findIndex((l) => l.includes('option: "3"'));
    const diag = await waitFor('a diagnostic for option 33', () => ourDiagnostics(uri).find((d) => d.message.includes('33')));
    assert.equal(diag.range.start.line, lineOf33);
    writeFileSync(file, good);
    await waitFor('the diagnostics to clear', () => ourDiagnostics(uri).length === 0);
  });

  it('sees changes on disk that no file event reported: a review found by search, a ranking fixed, then broken again', async () => {
    // The watcher leaves unwatched/ out, as a loaded machine's watcher misses a change in a folder made moments before: the
    // extension learns of these changes only by looking at the disk. A watcher of the test's own shows no event came.
    const events: string[] = [];
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${info().unwatched}/**`);
    for (const [kind, on] of [
      ['create', watcher.onDidCreate],
      ['change', watcher.onDidChange],
      ['delete', watcher.onDidDelete],
    ] as const) {
      on((u) => events.push(`${kind} ${u.fsPath}`));
    }
    const name = `${info().unwatched}/live-unwatched`;
    const root = copySample(name);
    const file = join(root, 'rankings', 'ben.yaml');
    const uri = vscode.Uri.file(file);
    const good = readFileSync(file, 'utf8');
    const line = good.split('\n').findIndex((l) => l.includes('option: "3"'));
    try {
      // Broken before the extension ever saw the review: found by a search, validated without any event.
      writeFileSync(file, good.replace('option: "3"', 'option: "33"'));
      await waitFor('the unannounced review in the tree', async () => {
        const roots = await vscode.commands.executeCommand<TreeSnapshot[]>('teamfusion.internal.describeReviewsTree', 1);
        return roots.some((r) => r.description?.startsWith(name));
      });
      const first = await waitFor('a diagnostic for option 33', () => ourDiagnostics(uri).find((d) => d.message.includes('"33"')));
      assert.equal(first.range.start.line, line);
      writeFileSync(file, good);
      await waitFor('the diagnostics to clear once the file is fixed on disk', () => ourDiagnostics(uri).length === 0);
      writeFileSync(file, good.replace('option: "3"', 'option: "34"'));
      const again = await waitFor('a diagnostic for option 34', () => ourDiagnostics(uri).find((d) => d.message.includes('"34"')));
      assert.equal(again.range.start.line, line);
      assert.deepEqual(events, [], 'no file event came from the unwatched folder (else this test would not show what it claims)');
    } finally {
      watcher.dispose();
      writeFileSync(file, good);
    }
  });

  it('checks unsaved edits of a ranking file as you type', async () => {
    const root = copySample('live-edit');
    const uri = vscode.Uri.file(join(root, 'rankings', 'chen.yaml'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    await waitFor('the review to validate clean', async () => {
      await vscode.commands.executeCommand('teamfusion.validateReview', vscode.Uri.file(root));
      return ourDiagnostics(uri).length === 0;
    });
    const line = doc
      .getText()
      .split('\n')
      .findIndex((l) => /rank: 1\b/.test(l));
    assert.ok(line > 0);
    const edit = new vscode.WorkspaceEdit();
    const old = doc.lineAt(line);
    edit.replace(uri, old.range, old.text.replace('rank: 1', 'rank: first'));
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(doc.isDirty, 'the edit is not saved');
    const d = await waitFor('a diagnostic from the unsaved text', () => ourDiagnostics(uri).find((x) => x.range.start.line === line));
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    // Typed back (an edit, not the focus-dependent `undo` command, which a busy window may send elsewhere).
    const back = new vscode.WorkspaceEdit();
    back.replace(uri, doc.lineAt(line).range, old.text);
    assert.ok(await vscode.workspace.applyEdit(back));
    await waitFor('the diagnostic to clear once the text is mended', () => ourDiagnostics(uri).length === 0);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Validate Review reports the broken review and passes the sample', async () => {
    const { broken, brokenFile, sample } = info();
    const bad = await vscode.commands.executeCommand<ValidateOutcome>('teamfusion.validateReview', vscode.Uri.file(join(ws(), broken)));
    assert.ok(bad, 'the command returns its outcome');
    assert.ok(bad.errors >= 1, 'at least one error');
    assert.ok(bad.diagnostics.some((d) => d.file === brokenFile && d.line === 4 && d.message.includes('no-such-option')));
    // A file inside the review names the review too.
    const good = await vscode.commands.executeCommand<ValidateOutcome>(
      'teamfusion.validateReview',
      vscode.Uri.file(join(ws(), sample, 'brief.md')),
    );
    assert.equal(good.errors, 0, `sample errors: ${good.diagnostics.map((d) => d.message).join(' | ')}`);
  });

  it('New Review scaffolds a valid sample review and an empty one, and refuses a non-empty folder', async () => {
    const target = join(ws(), 'made-by-test');
    rmSync(target, { recursive: true, force: true });
    const made = await vscode.commands.executeCommand<string>('teamfusion.newReview', { template: 'sample', target, open: false });
    assert.equal(made, target);
    assert.ok(existsSync(join(target, 'brief.md')));
    const v = await vscode.commands.executeCommand<ValidateOutcome>('teamfusion.validateReview', vscode.Uri.file(target));
    assert.equal(v.errors, 0, `scaffolded sample errors: ${v.diagnostics.map((d) => d.message).join(' | ')}`);
    const again = await vscode.commands.executeCommand<string | undefined>('teamfusion.newReview', {
      template: 'empty',
      target,
      open: false,
    });
    assert.equal(again, undefined, 'a non-empty folder is refused');
    const empty = await vscode.commands.executeCommand<string>('teamfusion.newReview', {
      template: 'empty',
      target: 'made-empty',
      open: true,
    });
    assert.equal(empty, join(ws(), 'made-empty'));
    assert.ok(existsSync(join(empty, 'brief.md')));
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, join(empty, 'brief.md'), 'brief.md is opened');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Import Rankings from CSV writes ranking files and does not overwrite without force', async () => {
    const root = copySample('import-check');
    // A new team: the sample's lead (ana) is not among the imported designers, and a lead must be one of the designers.
    writeFileSync(join(root, 'review.yaml'), readFileSync(join(root, 'review.yaml'), 'utf8').replace(/^lead:.*\n/m, ''));
    rmSync(join(root, 'rankings'), { recursive: true, force: true });
    mkdirSync(join(root, 'rankings'));
    const { options } = info();
    const header = ['designer', 'role', ...options.flatMap((o) => [`rank:${o}`, `justification:${o}`])];
    const row = (name: string, shift: number) => [
      name,
      'Tester',
      ...options.flatMap((o, i) => [String(((i + shift) % options.length) + 1), `Reason ${o} from ${name}`]),
    ];
    const csv = join(ws(), 'rankings.csv');
    writeFileSync(csv, [header, row('Eve Test', 0), row('Finn Test', 2)].map((r) => r.join(',')).join('\n') + '\n');
    const first = await vscode.commands.executeCommand<ImportOutcome>('teamfusion.importRankings', { reviewRoot: root, csv });
    assert.deepEqual(
      first.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    assert.deepEqual([...first.written].sort(), ['rankings/eve-test.yaml', 'rankings/finn-test.yaml']);
    const eve = join(root, 'rankings', 'eve-test.yaml');
    assert.match(readFileSync(eve, 'utf8'), /designer: Eve Test/);
    writeFileSync(eve, readFileSync(eve, 'utf8').replace('Reason', 'Edited reason'));
    const second = await vscode.commands.executeCommand<ImportOutcome>('teamfusion.importRankings', { reviewRoot: root, csv });
    assert.equal(second.written.length, 0);
    assert.equal(second.skipped.length, 2);
    assert.match(readFileSync(eve, 'utf8'), /Edited reason/, 'the edited file is kept');
    const forced = await vscode.commands.executeCommand<ImportOutcome>('teamfusion.importRankings', { reviewRoot: root, csv, force: true });
    assert.equal(forced.written.length, 2);
    assert.doesNotMatch(readFileSync(eve, 'utf8'), /Edited reason/);
    const v = await vscode.commands.executeCommand<ValidateOutcome>('teamfusion.validateReview', vscode.Uri.file(root));
    assert.equal(v.errors, 0, `imported review errors: ${v.diagnostics.map((d) => d.message).join(' | ')}`);
  });
});
