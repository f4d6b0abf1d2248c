/** The Marketplace manifest: icon, banner, keywords, categories, changelog, bin, walkthrough; nothing invented. */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { COMMANDS } from '../../../src/extension/commandIds';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, any>;

describe('package.json for the Marketplace', () => {
  it('has a PNG icon of at least 128 px, a gallery banner, keywords and categories', async () => {
    const icon = path.join(REPO, pkg.icon as string);
    const meta = await sharp(icon).metadata();
    assert.equal(meta.format, 'png');
    assert.ok((meta.width ?? 0) >= 128 && meta.width === meta.height);
    assert.match(pkg.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(pkg.galleryBanner.theme));
    assert.ok(pkg.keywords.length >= 5 && pkg.keywords.length <= 30);
    assert.ok(pkg.categories.includes('Visualization'));
  });

  it('has a changelog for this version and no placeholder repository', () => {
    assert.match(readFileSync(path.join(REPO, 'CHANGELOG.md'), 'utf8'), new RegExp(`## ${pkg.version.replace(/\./g, '\\.')}`));
    assert.equal(pkg.repository, undefined);
    assert.ok(!JSON.stringify(pkg).includes('example.invalid'));
  });

  it('has a `teamfusion` bin built with a shebang', () => {
    assert.equal(pkg.bin.teamfusion, './dist/cli.js');
    assert.match(readFileSync(path.join(REPO, 'esbuild.mjs'), 'utf8'), /banner: \{ js: '#!\/usr\/bin\/env node' \}/);
  });

  it('has a walkthrough whose steps exist, show their media and run contributed commands', () => {
    const [walk] = pkg.contributes.walkthroughs;
    const commands = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
    assert.deepEqual(
      walk.steps.map((s: { id: string }) => s.id),
      ['newReview', 'rankings', 'analysis', 'apiKey', 'firstRun'],
    );
    for (const step of walk.steps) {
      assert.ok(existsSync(path.join(REPO, step.media.markdown)), step.media.markdown);
      const used = [...(step.description as string).matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
      assert.ok(used.length > 0 && used.every((c) => commands.has(c)), `${step.id}: ${used.join(', ')}`);
      assert.ok(
        step.completionEvents.every((e: string) => /^onContext:teamfusion\.walkthrough\.\w+$/.test(e)),
        step.id,
      );
    }
  });
});

describe('the walkthrough pages', () => {
  // VS Code shows a walkthrough's Markdown in a narrow column and does not wrap its code blocks: a longer line is cut off.
  it('keep every line of a code block within 44 characters, so nothing is cut off', () => {
    const dir = path.join(REPO, 'media', 'walkthrough');
    const long: string[] = [];
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.md'))) {
      let fence = false;
      readFileSync(path.join(dir, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.startsWith('```')) fence = !fence;
          else if (fence && [...line].length > 44) long.push(`${f}:${i + 1}: ${line}`);
        });
    }
    assert.deepEqual(long, []);
  });
});

describe('activation shell', () => {
  it('stands in for every command the core registers (package.json commands + INTERNAL_COMMANDS), so any of them loads the core', () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      contributes: { commands: { command: string }[] };
    };
    const firstUse = readFileSync(path.join(REPO, 'src/extension/firstUse.ts'), 'utf8');
    const internal = [...(/INTERNAL_COMMANDS = \[([^\]]*)\]/.exec(firstUse)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const standIns = new Set([...manifest.contributes.commands.map((c) => c.command), ...internal]);
    const constants = new Map<string, string>();
    const calls: string[] = [];
    const typed = (name: string | undefined): string | undefined =>
      name === undefined ? undefined : ((COMMANDS as Record<string, string>)[name] ?? `COMMANDS.${name}?`);
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const f = path.join(dir, e.name);
        if (e.isDirectory()) walk(f);
        else if (f.endsWith('.ts')) {
          const text = readFileSync(f, 'utf8');
          // An id is written as a string, a COMMANDS entry (commandIds.ts) or an exported *_COMMAND constant of either.
          for (const m of text.matchAll(/export const (\w+_COMMAND)\b[^=]*= (?:'([^']+)'|COMMANDS\.(\w+))/g)) {
            const id = m[2] ?? typed(m[3]);
            if (m[1] && id) constants.set(m[1], id);
          }
          for (const m of text.matchAll(/registerCommand\(\s*('([^']+)'|COMMANDS\.(\w+)|\w+)/g))
            calls.push(m[2] ?? typed(m[3]) ?? m[1] ?? '');
        }
      }
    };
    walk(path.join(REPO, 'src/extension'));
    const registered = calls.map((c) => constants.get(c) ?? c);
    assert.ok(registered.length > 20, `found ${registered.length} registrations`);
    // extension.ts registers the stand-ins themselves as `registerCommand(id, …)`.
    const missing = registered.filter((id) => id !== 'id' && !standIns.has(id));
    assert.deepEqual(missing, [], 'a command the core registers has no stand-in: list it in package.json or INTERNAL_COMMANDS');
  });
});
