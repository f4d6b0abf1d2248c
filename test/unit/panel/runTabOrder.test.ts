/**
 * The Run tab in the order a lead reads it (issue 40 item 8): its parts top down, cost and settings last and collapsed,
 * and remix cards of one size (a grid of equal columns: no card grows to the full width). The rendered order is checked
 * in a real VS Code by test/e2e/forks.e2e.ts.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { RUN_TAB_ORDER } from '../../../webview/panel/views/run/runTab';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');

/** The declarations of a CSS rule whose selector list is exactly `selector`. */
function rule(css: string, selector: string): string {
  const at = css.indexOf(`\n${selector} {`);
  assert.ok(at >= 0, `${selector} has a rule`);
  return css.slice(css.indexOf('{', at) + 1, css.indexOf('}', at));
}

describe('panel: the Run tab reads top down', () => {
  it('status, decisions, the final pick and remixes, "Did it help?", the discussion, Refine, then cost and settings', () => {
    assert.deepEqual([...RUN_TAB_ORDER], ['toolbar', 'status', 'decisions', 'results', 'evaluation', 'discussion', 'refine', 'cost']);
    const at = (p: (typeof RUN_TAB_ORDER)[number]) => RUN_TAB_ORDER.indexOf(p);
    assert.ok(at('decisions') < at('results') && at('results') < at('discussion') && at('discussion') < at('cost'));
  });

  it('cost and settings are a <details> closed by default', () => {
    const source = readFileSync(path.join(REPO, 'webview', 'panel', 'views', 'run', 'runTab.ts'), 'utf8');
    const made = /h\('details', \{([^}]*)\}/.exec(source);
    assert.ok(made, 'the cost part is a details element');
    assert.doesNotMatch(made[1]!, /open/, 'not opened by the page');
    assert.doesNotMatch(source, /cost\.open\s*=|setAttribute\('open'/, 'nor opened later');
  });

  it('remix cards are one size: a grid of equal columns, no card that grows to the row', () => {
    const css = readFileSync(path.join(REPO, 'media', 'panel.css'), 'utf8');
    const grid = rule(css, '.tf-remix-grid');
    assert.match(grid, /display: grid/);
    assert.match(
      grid,
      /grid-template-columns: repeat\(auto-fill, minmax\(min\(\d+px, 100%\), 1fr\)\)/,
      'auto-fill: a short last row keeps its columns',
    );
    assert.doesNotMatch(rule(css, '.tf-remix-card'), /flex:|grid-column/, 'a card never spans or grows');
  });
});
