/**
 * Text contrast of the panel (issue 40): every text colour media/panel.css declares, over the surfaces it is shown on,
 * as the CSS expressions the stylesheet uses, and the arithmetic to check them against WCAG AA (4.5:1 for text) once
 * the theme's variables are known. Pure (unit tested against VS Code's default themes); the panel never imports it.
 */
import { HEAT_MAX_PERCENT, SPEAKER_COLORS, TAU_MAX_PERCENT } from './colors';

/** WCAG 2 AA for normal-size text. */
export const AA_TEXT = 4.5;

/** An sRGB colour with alpha, each channel 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/**
 * A text colour of the panel: the rule's selector and its `color:` (or, for SVG text, `fill:`) value exactly as in
 * panel.css, and what it sits on; `inherited` for text that keeps an inherited or component colour over a fill of its own.
 */
export interface TextColor {
  selector: string;
  property: 'color' | 'fill' | 'inherited';
  color: string;
  /** Background expressions the text is shown over; translucent ones are laid over the editor background. */
  over: readonly string[];
  /** The rule's `opacity:` (its own background is transparent, so the text fades into what is under it). */
  opacity?: number;
  /** Variables the rule's element has of its own (e.g. a message's `--tf-speaker`). */
  vars?: Readonly<Record<string, string>>;
}

const EDITOR_BG = 'var(--vscode-editor-background)';
/** The surfaces any panel text can land on: the page, cards and widgets, quotes and notices. */
export const SURFACES = [EDITOR_BG, 'var(--vscode-editorWidget-background)', 'var(--vscode-textBlockQuote-background)'] as const;

const anywhere = (selector: string, color: string): TextColor => ({ selector, property: 'color', color, over: SURFACES });

/** `fill:` declarations of panel.css that paint shapes, not text (the words of those charts are in the legend). */
export const GRAPHIC_FILLS: readonly string[] = ['.tf-cat-seg', '.tf-line', '.tf-dot.tf-line-agrees', '.tf-dot.tf-line-disagrees'];

/**
 * `opacity:` below 1 that WCAG does not ask to contrast: disabled controls and the row being dragged (inactive
 * components), the blinking cursor's off phase. Any other opacity must be in TEXT_COLORS.
 */
export const EXEMPT_OPACITY: readonly string[] = [
  '50%',
  '.tf-rank-list li.tf-dragging',
  '.tf-icon-button:disabled',
  '.tf-scale-btn[disabled]',
];

/** Every `color:` and text `fill:` of media/panel.css (the unit test fails on one missing here), plus text on tinted fills. */
export const TEXT_COLORS: readonly TextColor[] = [
  anywhere('body', 'var(--vscode-foreground)'),
  anywhere('a', 'var(--vscode-textLink-foreground)'),
  anywhere('a:hover', 'var(--vscode-textLink-activeForeground)'),
  ...[
    '.tf-muted',
    '.tf-next-title',
    '.tf-thumb-missing',
    '.tf-thumb figcaption',
    '.tf-corner',
    '.tf-role',
    '.tf-cell-empty',
    '.tf-stat-label',
    '.tf-why',
    '.tf-progress',
    '.tf-live',
    '.tf-usage dt',
    '.tf-rk-handle',
    '.tf-eval-table thead th',
    '.tf-placement-why',
    '.tf-crit-no-position, .tf-crit-not-mentioned',
    '.tf-fork-fate-set-aside',
  ].map((s) => anywhere(s, 'var(--vscode-descriptionForeground)')),
  anywhere('.tf-error-text', 'var(--tf-text-error)'),
  anywhere('.tf-saved', 'var(--tf-text-ok)'),
  anywhere('.tf-contested .tf-head-id::after', 'var(--tf-text-flag)'),
  anywhere('.tf-live-problem', 'var(--tf-text-warning)'),
  anywhere('.tf-key-agrees', 'var(--tf-text-ok)'),
  anywhere('.tf-key-disagrees', 'var(--tf-text-bad)'),
  anywhere('.tf-stance-kept', 'var(--tf-text-ok)'),
  anywhere('.tf-stance-yielded', 'var(--tf-text-warning)'),
  anywhere('.tf-cov-alert', 'var(--tf-text-warning)'),
  anywhere('.tf-cov-kept', 'var(--tf-text-ok)'),
  anywhere('.tf-cov-changed', 'var(--tf-text-info)'),
  anywhere('.tf-cov-left-out', 'var(--tf-text-warning)'),
  anywhere('.tf-criteria-quote', 'var(--vscode-foreground)'),
  { selector: '.tf-icon-button', property: 'color', color: 'var(--vscode-icon-foreground, var(--vscode-foreground))', over: SURFACES },
  {
    selector: '.tf-tooltip',
    property: 'color',
    color: 'var(--vscode-editorHoverWidget-foreground)',
    over: ['var(--vscode-editorHoverWidget-background)'],
  },
  {
    selector: '.tf-scale-btn',
    property: 'color',
    color: 'var(--vscode-button-secondaryForeground, var(--vscode-foreground))',
    over: SURFACES.map((s) => `var(--vscode-button-secondaryBackground, ${s})`),
  },
  {
    selector: '.tf-scale-btn.tf-scale-on',
    property: 'color',
    color: 'var(--vscode-button-foreground)',
    over: ['var(--vscode-button-background)'],
  },
  {
    selector: '.tf-text-button',
    property: 'color',
    color: 'var(--vscode-button-secondaryForeground)',
    over: SURFACES.map((s) => `var(--vscode-button-secondaryBackground, ${s})`),
  },
  {
    selector: '.tf-text-button[aria-pressed="true"]',
    property: 'color',
    color: 'var(--vscode-button-foreground)',
    over: ['var(--vscode-button-background)'],
  },
  { selector: '.tf-viewer', property: 'color', color: 'var(--vscode-foreground)', over: [EDITOR_BG] },
  {
    selector: '.tf-cov-flagged th',
    property: 'color',
    color: 'var(--vscode-foreground)',
    over: ['var(--vscode-inputValidation-warningBackground, transparent)'],
  },
  {
    selector: '.tf-gallery-item figure',
    property: 'color',
    color: 'var(--vscode-foreground)',
    over: ['var(--vscode-editorWidget-background, transparent)'],
  },
  // The streaming cursor takes its speaker's colour, made legible by the foreground.
  ...SPEAKER_COLORS.map((v) => ({
    selector: '.tf-streaming .tf-msg-body::after',
    property: 'color' as const,
    color: 'color-mix(in srgb, var(--tf-speaker) 60%, var(--vscode-foreground))',
    over: SURFACES,
    vars: { '--tf-speaker': `var(${v})` },
  })),
  // Inherited text over tinted fills: a person's message (the stronger tint), the strongest heatmap cell and tau cell.
  ...SPEAKER_COLORS.map((v) => ({
    selector: '.tf-msg[data-kind="human"]',
    property: 'inherited' as const,
    color: 'var(--vscode-foreground)',
    over: [`color-mix(in srgb, var(${v}) 14%, transparent)`],
  })),
  {
    selector: '.tf-cell',
    property: 'inherited',
    color: 'var(--vscode-foreground)',
    over: [`color-mix(in srgb, var(--tf-accent) ${HEAT_MAX_PERCENT}%, transparent)`],
  },
  ...['--vscode-charts-green', '--vscode-charts-red'].map((v) => ({
    selector: '.tf-tau',
    property: 'inherited' as const,
    color: 'var(--vscode-foreground)',
    over: [`color-mix(in srgb, var(${v}) ${TAU_MAX_PERCENT}%, transparent)`],
  })),
  // A message still waiting in the run's inbox is drawn faded: its words and its muted note.
  ...['var(--vscode-foreground)', 'var(--vscode-descriptionForeground)'].map((color) => ({
    selector: '.tf-msg.tf-pending',
    property: 'inherited' as const,
    color,
    over: [EDITOR_BG],
    opacity: 0.85,
  })),
  // Chart words drawn in SVG.
  { selector: '.tf-chart-label', property: 'fill', color: 'var(--vscode-foreground)', over: SURFACES },
  { selector: '.tf-chart-note', property: 'fill', color: 'var(--vscode-descriptionForeground)', over: SURFACES },
  // Badges: the theme's badge colours; the coverage badge sets its own (its rule's variables apply).
  { selector: 'vscode-badge', property: 'inherited', color: 'var(--vscode-badge-foreground)', over: ['var(--vscode-badge-background)'] },
  { selector: '.tf-cov-badge', property: 'inherited', color: 'var(--vscode-badge-foreground)', over: ['var(--vscode-badge-background)'] },
];

/** `#rgb`, `#rrggbb`, `#rrggbbaa` → Rgba. */
export function parseHex(hex: string): Rgba {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(hex.trim());
  if (!m) throw new Error(`not a hex colour: ${hex}`);
  let s = m[1]!;
  if (s.length === 3)
    s = s
      .split('')
      .map((c) => c + c)
      .join('');
  const at = (i: number): number => parseInt(s.slice(i, i + 2), 16) / 255;
  return { r: at(0), g: at(2), b: at(4), a: s.length === 8 ? at(6) : 1 };
}

/** Split a function's arguments at top-level commas. */
function args(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(inner.slice(start).trim());
  return out;
}

/** CSS color-mix in srgb (premultiplied alpha), `p` the weight of `a` in 0..1. */
export function mix(a: Rgba, b: Rgba, p: number): Rgba {
  const alpha = a.a * p + b.a * (1 - p);
  if (alpha === 0) return { r: 0, g: 0, b: 0, a: 0 };
  const ch = (x: number, y: number): number => (x * a.a * p + y * b.a * (1 - p)) / alpha;
  return { r: ch(a.r, b.r), g: ch(a.g, b.g), b: ch(a.b, b.b), a: alpha };
}

/** `top` laid over an opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const ch = (x: number, y: number): number => x * top.a + y * (1 - top.a);
  return { r: ch(top.r, bottom.r), g: ch(top.g, bottom.g), b: ch(top.b, bottom.b), a: 1 };
}

/**
 * Resolve a CSS colour expression (hex, `transparent`, `var(--x, fallback)`, `color-mix(in srgb, A p%, B)`) with the
 * given variables (theme `--vscode-*` and the panel's own `--tf-*`, each itself an expression). An unset variable
 * without a fallback is invalid in CSS; it throws here so the table cannot silently rely on one.
 */
export function resolveColor(expr: string, vars: Readonly<Record<string, string>>, depth = 0): Rgba {
  if (depth > 20) throw new Error(`variable cycle at ${expr}`);
  const e = expr.trim();
  if (e === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  if (e.startsWith('#')) return parseHex(e);
  const fn = /^([a-z-]+)\((.*)\)$/is.exec(e);
  if (fn && fn[1] === 'var') {
    const [name, ...rest] = args(fn[2]!);
    const value = vars[name!];
    if (value !== undefined) return resolveColor(value, vars, depth + 1);
    if (rest.length) return resolveColor(rest.join(','), vars, depth + 1);
    throw new Error(`${name} is not set and has no fallback`);
  }
  if (fn && fn[1] === 'color-mix') {
    const [space, a, b] = args(fn[2]!);
    if (space !== 'in srgb' || a === undefined || b === undefined) throw new Error(`unsupported color-mix: ${e}`);
    const pa = /^(.*)\s+([\d.]+)%$/s.exec(a);
    const pb = /^(.*)\s+([\d.]+)%$/s.exec(b);
    let wa = pa ? Number(pa[2]) / 100 : undefined;
    const wb = pb ? Number(pb[2]) / 100 : undefined;
    if (wa === undefined) wa = wb === undefined ? 0.5 : 1 - wb;
    return mix(resolveColor(pa ? pa[1]! : a, vars, depth + 1), resolveColor(pb ? pb[1]! : b, vars, depth + 1), wa);
  }
  throw new Error(`unsupported colour expression: ${e}`);
}

/** WCAG 2 relative luminance of an opaque colour. */
export function luminance(c: Rgba): number {
  const lin = (x: number): number => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

/** WCAG 2 contrast ratio of two opaque colours, 1..21. */
export function contrastRatio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The contrast of one text colour over one background in a theme: translucent layers (and faded text) go over what is under them. */
export function textContrast(color: string, background: string, vars: Readonly<Record<string, string>>, opacity = 1): number {
  const page = over(resolveColor(EDITOR_BG, vars), { r: 0, g: 0, b: 0, a: 1 });
  const bg = over(resolveColor(background, vars), page);
  const text = resolveColor(color, vars);
  return contrastRatio(over({ ...text, a: text.a * opacity }, bg), bg);
}
