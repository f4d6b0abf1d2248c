// The workspace the integration suite opens: a copy of the sample review and a broken copy of it, and workspace settings
// that keep VS Code's file watcher out of one folder (UNWATCHED: changes there come with no file event, as when a watcher
// misses them). Writes <workspace>/.teamfusion-it.json describing what it made, so tests need not guess.
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, parse } from 'node:path';

export const SAMPLE = 'lumen-perfume';
export const BROKEN = 'broken-review';
export const UNWATCHED = 'unwatched';

/** Fills `workspace` (an empty folder) from `<repo>/samples/lumen-perfume`. Returns the description it wrote. */
export function prepareTestWorkspace(repo, workspace) {
  const sample = process.env.TEAMFUSION_SAMPLE_DIR || join(repo, 'samples', SAMPLE);
  if (!existsSync(join(sample, 'brief.md')) || !existsSync(join(sample, 'rankings'))) {
    throw new Error(`The sample review is missing (${sample}); the integration suite needs it.`);
  }
  const copy = (name) => {
    const dest = join(workspace, name);
    cpSync(sample, dest, { recursive: true, filter: (src) => !src.startsWith(join(sample, 'runs')) });
    return dest;
  };
  copy(SAMPLE);
  const broken = copy(BROKEN);
  const rankingFiles = readdirSync(join(broken, 'rankings'))
    .filter((f) => /\.(ya?ml|json)$/i.test(f))
    .sort();
  const options = readdirSync(join(broken, 'options'))
    .filter((f) => /\.(png|jpe?g|webp)$/i.test(f))
    .map((f) => parse(f).name);
  // Replace the first designer's ranking by one that names an option that does not exist (line 4) and omits the rest.
  const victim = rankingFiles[0];
  rmSync(join(broken, 'rankings', victim));
  const brokenFile = `rankings/${parse(victim).name}.yaml`;
  writeFileSync(
    join(broken, brokenFile),
    [
      'designer: Broken Ranking',
      'role: Tester',
      'ranking:',
      '  - option: "no-such-option"',
      '    rank: 1',
      '    justification: Names an image that is not in options/.',
      '',
    ].join('\n'),
  );
  // Made now, before VS Code starts: the folder itself is watched (only what is inside it is left out).
  mkdirSync(join(workspace, UNWATCHED), { recursive: true });
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(
    join(workspace, '.vscode', 'settings.json'),
    JSON.stringify({ 'files.watcherExclude': { [`**/${UNWATCHED}/**`]: true } }, null, 2),
  );
  const info = { sample: SAMPLE, broken: BROKEN, brokenFile, brokenLine: 4, options, rankingFiles, unwatched: UNWATCHED };
  writeFileSync(join(workspace, '.teamfusion-it.json'), JSON.stringify(info, null, 2));
  return info;
}
