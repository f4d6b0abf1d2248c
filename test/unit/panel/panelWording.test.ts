/**
 * Panel wording and layout that issue 30 found slipping: counts read in the right number ("1 run", never "1 runs" or
 * "· 0 it."), a round's coding reads as a sentence, the hover preview shows only when the pointer itself moved onto a
 * thumbnail (never over text the reader is on, when the page moves under a resting pointer), and the remix card uses
 * the width it has.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { count } from '../../../webview/panel/text/format';
import { pointerMoved } from '../../../webview/panel/views/review/peek';

const REPO = path.resolve(__dirname, '../../../..');
const read = (rel: string): string => readFileSync(path.join(REPO, rel), 'utf8');

describe('panel wording and layout', () => {
  it('counts a noun in the right number', () => {
    assert.equal(count(1, 'run'), '1 run');
    assert.equal(count(0, 'run'), '0 runs');
    assert.equal(count(2, 'iteration'), '2 iterations');
    assert.equal(count(1, 'coded message'), '1 coded message');
    assert.equal(count(1200, 'option'), '1,200 options');
    assert.equal(count(2, 'analysis', 'analyses'), '2 analyses');
  });

  it('the header, the run picker and the coding summary count with it, and no slip is left in the panel', () => {
    assert.match(read('webview/panel/app.ts'), /count\(state\.runs\.length, 'run'\)/);
    // The run picker's line is made in one place (format.ts runOptionLabel), which runTab.ts uses.
    assert.match(read('webview/panel/text/format.ts'), /count\(r\.iterations, 'iteration'\)/);
    assert.match(read('webview/panel/views/run/runTab.ts'), /runOptionLabel\(/);
    assert.match(read('webview/panel/views/discussion/discussionAnalysis.ts'), /of \$\{count\(r\.coded, 'coded message'\)\}/);
    for (const f of ['webview/panel/app.ts', 'webview/panel/views/run/runTab.ts', 'webview/panel/views/discussion/discussionAnalysis.ts']) {
      const text = read(f);
      assert.doesNotMatch(text, /\.length\} runs`|\} it\.|disagrees \(of/, f);
    }
  });

  it('the hover preview ignores a pointer that did not move (the page moved under it)', () => {
    assert.equal(pointerMoved(undefined, { screenX: 10, screenY: 20 }), true);
    assert.equal(pointerMoved({ x: 10, y: 20 }, { screenX: 10, screenY: 20 }), false);
    assert.equal(pointerMoved({ x: 10, y: 20 }, { screenX: 11, screenY: 20 }), true);
    const peek = read('webview/panel/views/review/peek.ts');
    assert.match(peek, /addEventListener\('mouseover', hover\)/, 'pointer hover goes through the moved-pointer check');
    assert.match(peek, /addEventListener\('focusin', show\)/, 'keyboard focus still shows it');
  });

  it('the remix card grows to the width of its column (every column one size) and shows the remix uncropped at that width', () => {
    const css = read('media/panel.css');
    const card = /^\.tf-remix-card \{([^}]*)\}/m.exec(css)![1]!;
    assert.match(
      /^\.tf-remix-grid \{([^}]*)\}/m.exec(css)![1]!,
      /grid-template-columns: repeat\(auto-fill, minmax\(min\(\d+px, 100%\), 1fr\)\)/,
    );
    assert.doesNotMatch(card, /max-width: \d+px/);
    assert.match(css, /\.tf-remix-card \.tf-compare-main \.tf-thumb img \{[^}]*width: 100%[^}]*object-fit: contain/);
  });

  it('never crops a picture: square thumbnails letterbox a 3:2 banner instead of cutting its sides', () => {
    const css = read('media/panel.css');
    assert.doesNotMatch(css, /object-fit:\s*cover/);
    assert.match(css, /\.tf-thumb img, \.tf-thumb-missing \{[^}]*object-fit: contain/);
    assert.match(css, /\.tf-head-thumb \{[^}]*object-fit: contain/);
  });
});
