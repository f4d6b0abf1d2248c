/** The Marketplace manifest: icon, banner, keywords, categories, changelog, bin, walkthrough; nothing invented. */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

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
    assert.deepEqual(walk.steps.map((s: { id: string }) => s.id), ['newReview', 'rankings', 'analysis', 'apiKey', 'firstRun']);
    for (const step of walk.steps) {
      assert.ok(existsSync(path.join(REPO, step.media.markdown)), step.media.markdown);
      const used = [...(step.description as string).matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1]);
      assert.ok(used.length > 0 && used.every((c) => commands.has(c)), `${step.id}: ${used.join(', ')}`);
      assert.ok(step.completionEvents.every((e: string) => /^onContext:teamfusion\.walkthrough\.\w+$/.test(e)), step.id);
    }
  });
});
