import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  AA_TEXT,
  EXEMPT_OPACITY,
  GRAPHIC_FILLS,
  TEXT_COLORS,
  contrastRatio,
  parseHex,
  resolveColor,
  textContrast,
  type TextColor,
} from '../../../webview/panel/contrast';
import { THEMES } from './themeColors';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const CSS = fs.readFileSync(path.join(REPO, 'media', 'panel.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Every innermost `selector { declarations }` block of the stylesheet. */
function rules(css: string): Array<{ selector: string; decls: Array<[string, string]> }> {
  const out: Array<{ selector: string; decls: Array<[string, string]> }> = [];
  for (const m of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const decls = m[2]!
      .split(';')
      .map((d) => d.split(/:(.*)/s))
      .filter((p) => p.length > 1)
      .map((p) => [norm(p[0]!), norm(p[1]!)] as [string, string]);
    out.push({ selector: norm(m[1]!), decls });
  }
  return out;
}

const RULES = rules(CSS);

/** The custom properties the stylesheet declares on a selector: :root's for every element, a rule's for its own. */
const ownVars = (selector: string): Record<string, string> =>
  Object.fromEntries(RULES.filter((r) => r.selector === selector).flatMap((r) => r.decls.filter(([k]) => k.startsWith('--'))));
const ROOT_VARS = ownVars(':root');

function belowAA(entries: readonly TextColor[]): string[] {
  const bad: string[] = [];
  for (const theme of THEMES) {
    for (const e of entries) {
      const vars = { ...theme.vars, ...ROOT_VARS, ...ownVars(norm(e.selector)), ...e.vars };
      for (const bg of e.over) {
        const ratio = textContrast(e.color, bg, vars, e.opacity);
        if (ratio < AA_TEXT)
          bad.push(
            `${theme.name}: ${e.selector} { color: ${e.color} } over ${bg}${e.vars ? ` with ${JSON.stringify(e.vars)}` : ''} is ${ratio.toFixed(2)}:1`,
          );
      }
    }
  }
  return bad;
}

describe('panel text contrast (WCAG AA in Dark Modern, Light Modern and High Contrast)', () => {
  it('computes the WCAG contrast ratio and resolves theme expressions', () => {
    assert.equal(contrastRatio(parseHex('#000'), parseHex('#fff')), 21);
    assert.equal(contrastRatio(parseHex('#777777'), parseHex('#ffffff')).toFixed(2), '4.48');
    const vars = { '--a': '#ff0000', '--b': 'var(--missing, #0000ff)' };
    assert.deepEqual(resolveColor('color-mix(in srgb, var(--a) 25%, var(--b))', vars), { r: 0.25, g: 0, b: 0.75, a: 1 });
    assert.equal(resolveColor('color-mix(in srgb, var(--a) 40%, transparent)', vars).a.toFixed(2), '0.40');
    assert.throws(() => resolveColor('var(--missing)', vars), /not set/);
  });

  it('lists every color (and SVG text fill) declaration of media/panel.css in the contrast table', () => {
    const table = new Set(
      TEXT_COLORS.filter((e) => e.property !== 'inherited').map((e) => `${norm(e.selector)} { ${e.property}: ${norm(e.color)} }`),
    );
    const declared = RULES.flatMap((r) =>
      r.decls
        .filter(([k]) => k === 'color' || (k === 'fill' && !GRAPHIC_FILLS.includes(r.selector)))
        .map(([k, v]) => `${r.selector} { ${k}: ${v} }`),
    );
    assert.ok(declared.length > 30, `found only ${declared.length} color declarations`);
    const missing = declared.filter((d) => !table.has(d));
    assert.deepEqual(missing, [], 'add these to TEXT_COLORS in webview/panel/contrast.ts (with the surfaces they sit on)');
    const stale = [...table].filter((t) => !declared.includes(t));
    assert.deepEqual(stale, [], 'TEXT_COLORS lists colours panel.css no longer declares');
    const faded = RULES.flatMap((r) =>
      r.decls.filter(([k, v]) => k === 'opacity' && Number(v) < 1).map(([, v]) => ({ selector: r.selector, opacity: Number(v) })),
    );
    const unchecked = faded.filter(
      (f) => !EXEMPT_OPACITY.includes(f.selector) && !TEXT_COLORS.some((e) => norm(e.selector) === f.selector && e.opacity === f.opacity),
    );
    assert.deepEqual(
      unchecked,
      [],
      'faded text must be checked in TEXT_COLORS (with its opacity) or be an inactive state in EXEMPT_OPACITY',
    );
    for (const g of GRAPHIC_FILLS)
      assert.ok(
        RULES.some((r) => r.selector === g),
        `${g} is no longer in panel.css`,
      );
  });

  it('keeps every text colour at 4.5:1 or more over its backgrounds in the three default themes', () => {
    assert.deepEqual(belowAA(TEXT_COLORS), []);
  });

  it('would catch a theme colour used raw as text (the old orange flag and amber warning on white)', () => {
    const raw: TextColor[] = [
      { selector: 'flag', property: 'color', color: 'var(--vscode-charts-orange)', over: ['var(--vscode-editor-background)'] },
      {
        selector: 'warning',
        property: 'color',
        color: 'var(--vscode-editorWarning-foreground)',
        over: ['var(--vscode-editor-background)'],
      },
    ];
    const bad = belowAA(raw);
    assert.ok(
      bad.some((b) => b.startsWith('Light Modern: flag')),
      bad.join('\n'),
    );
    assert.ok(
      bad.some((b) => b.startsWith('Light Modern: warning')),
      bad.join('\n'),
    );
  });
});
