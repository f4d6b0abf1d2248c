/**
 * Self-contained SVG charts for `evaluate --out`: no script, no external font or image, explicit colours on a white
 * card, so they render the same in a Markdown preview and on a git host, in light and dark themes. Every text from a
 * file (review paths) is XML-escaped.
 */
import { REFERENCE } from './evaluate/reference';
import type { Evaluation } from './evaluate/evaluate';

const COLORS = {
  card: '#ffffff',
  border: '#c8ccd2',
  text: '#3c4148',
  grid: '#e3e6ea',
  before: '#4e79a7',
  after: '#e15759',
  bar: '#4e79a7',
  ref: '#2e7d32',
};
const FONT = 'font-family="Helvetica, Arial, sans-serif"';

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function svg(width: number, height: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect x="0.5" y="0.5" width="${width - 1}" height="${height - 1}" rx="6" fill="${COLORS.card}" stroke="${COLORS.border}"/>`,
    `<text x="16" y="26" ${FONT} font-size="15" font-weight="bold" fill="${COLORS.text}">${escapeXml(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

function text(x: number, y: number, s: string, opts: { size?: number; anchor?: 'start' | 'middle' | 'end'; color?: string } = {}): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${FONT} font-size="${opts.size ?? 12}" text-anchor="${opts.anchor ?? 'start'}" fill="${opts.color ?? COLORS.text}">${escapeXml(s)}</text>`;
}

/**
 * A label on its own background, so a reference line drawn before it never crosses its text (the box is an estimate of
 * the text's extent: 0.62 em a character, 1.2 em high, with 2 px to spare).
 */
export function boxedText(
  x: number,
  y: number,
  s: string,
  opts: { size?: number; anchor?: 'start' | 'middle' | 'end'; color?: string; bg: string },
): string {
  const size = opts.size ?? 12;
  const w = s.length * size * 0.62 + 4;
  const h = size * 1.2;
  const x0 = opts.anchor === 'end' ? x - w + 2 : opts.anchor === 'middle' ? x - w / 2 : x - 2;
  return `<rect class="label-bg" x="${x0.toFixed(1)}" y="${(y - size).toFixed(1)}" width="${w.toFixed(1)}" height="${h.toFixed(1)}" fill="${opts.bg}"/>\n${text(x, y, s, opts)}`;
}

function shorten(s: string, max: number): string {
  return s.length <= max ? s : `…${s.slice(s.length - max + 1)}`;
}

/** W before (blue) → after (red) for each re-ranked run, on a 0–1 axis, with the study's 0.37 → 0.43 as dashed lines. */
export function wBeforeAfterChart(e: Evaluation): string {
  const rows = e.reviews.flatMap((r) =>
    r.runs.flatMap((run) =>
      run.compare ? [{ label: `${r.path} · ${run.id.slice(0, 16)}`, before: run.compare.before.w, after: run.compare.after!.w }] : [],
    ),
  );
  const width = 640;
  const left = 220;
  const right = width - 30;
  const top = 64;
  const rowH = 26;
  const height = top + Math.max(rows.length, 1) * rowH + 50;
  const x = (w: number): number => left + Math.max(0, Math.min(1, w)) * (right - left);
  const body: string[] = [];
  body.push(
    `<circle cx="24" cy="44" r="5" fill="${COLORS.before}"/>`,
    text(34, 48, 'before'),
    `<circle cx="94" cy="44" r="5" fill="${COLORS.after}"/>`,
    text(104, 48, 'after (blind re-ranking)'),
    `<line x1="262" y1="44" x2="282" y2="44" stroke="${COLORS.ref}" stroke-width="2" stroke-dasharray="4 3"/>`,
    text(288, 48, `study: ${REFERENCE.wBefore} → ${REFERENCE.wAfter}`),
  );
  const axisY = top + Math.max(rows.length, 1) * rowH + 8;
  for (const t of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
    body.push(
      `<line x1="${x(t)}" y1="${top - 6}" x2="${x(t)}" y2="${axisY}" stroke="${COLORS.grid}"/>`,
      text(x(t), axisY + 16, t.toFixed(1), { anchor: 'middle', size: 11 }),
    );
  }
  for (const ref of [REFERENCE.wBefore, REFERENCE.wAfter]) {
    body.push(
      `<line x1="${x(ref)}" y1="${top - 6}" x2="${x(ref)}" y2="${axisY}" stroke="${COLORS.ref}" stroke-width="1.5" stroke-dasharray="4 3"/>`,
    );
  }
  body.push(text((left + right) / 2, axisY + 34, "Kendall's W", { anchor: 'middle', size: 11 }));
  if (rows.length === 0) body.push(boxedText(left + 4, top + 16, 'No re-ranked run yet.', { bg: COLORS.card }));
  rows.forEach((r, i) => {
    const y = top + i * rowH + rowH / 2;
    body.push(
      text(left - 10, y + 4, shorten(r.label, 32), { anchor: 'end', size: 11 }),
      `<line x1="${x(r.before)}" y1="${y}" x2="${x(r.after)}" y2="${y}" stroke="${COLORS.border}" stroke-width="3"/>`,
      `<circle cx="${x(r.before)}" cy="${y}" r="6" fill="${COLORS.before}"><title>before ${r.before.toFixed(2)}</title></circle>`,
      `<circle cx="${x(r.after)}" cy="${y}" r="6" fill="${COLORS.after}"><title>after ${r.after.toFixed(2)}</title></circle>`,
    );
  });
  return svg(width, height, 'Agreement before → after, per re-ranked run', body);
}

/** Top-1 and top-2 acceptance of the generated options over re-ranked runs, with the study's rates as marks. */
export function acceptanceChart(e: Evaluation): string {
  const o = e.overall;
  const width = 480;
  const height = 230;
  const left = 110;
  const right = width - 40;
  const x = (v: number): number => left + v * (right - left);
  const body: string[] = [];
  const bars: [string, number | null, number][] = [
    ['top 1', o.top1Rate, REFERENCE.top1Rate],
    ['top 2', o.top2Rate, REFERENCE.top2Rate],
  ];
  bars.forEach(([label, v, ref], i) => {
    const y = 60 + i * 56;
    body.push(text(left - 10, y + 22, `generated ${label}`, { anchor: 'end' }));
    body.push(`<rect x="${left}" y="${y}" width="${right - left}" height="32" fill="${COLORS.grid}"/>`);
    if (v !== null) body.push(`<rect x="${left}" y="${y}" width="${(x(v) - left).toFixed(1)}" height="32" fill="${COLORS.bar}"/>`);
    // The study's mark first, the value's label after it on its own background: the dashed line never crosses the label.
    body.push(
      `<line x1="${x(ref)}" y1="${y - 6}" x2="${x(ref)}" y2="${y + 38}" stroke="${COLORS.ref}" stroke-width="2.5" stroke-dasharray="4 3"/>`,
    );
    const inside = v !== null && v > 0.85;
    body.push(
      boxedText(inside ? x(v) - 6 : x(v ?? 0) + 6, y + 21, v === null ? 'no re-ranked run' : `${Math.round(v * 100)}%`, {
        anchor: inside ? 'end' : 'start',
        color: inside ? '#ffffff' : COLORS.text,
        bg: inside ? COLORS.bar : COLORS.grid,
      }),
    );
  });
  body.push(
    text(
      left,
      196,
      `${o.rerankedRuns} re-ranked run${o.rerankedRuns === 1 ? '' : 's'}; dashed: the study (${Math.round(REFERENCE.top1Rate * 100)}%, ${Math.round(REFERENCE.top2Rate * 100)}%)`,
      { size: 11 },
    ),
  );
  return svg(width, height, 'A generated option in the team’s blind top 1 / top 2', body);
}

/** How many ratings gave each score 1–5, with the mean and the study's 4.06. */
export function ratingsChart(e: Evaluation): string {
  const o = e.overall;
  const width = 480;
  const height = 250;
  const left = 50;
  const bottom = 190;
  const top = 56;
  const maxCount = Math.max(1, ...o.ratingsDistribution);
  const slot = (width - left - 30) / 5;
  const body: string[] = [];
  const xAt = (score: number): number => left + (score - 0.5) * slot;
  const labels: string[] = [];
  o.ratingsDistribution.forEach((k, i) => {
    const hgt = ((bottom - top) * k) / maxCount;
    const x0 = left + i * slot + 8;
    body.push(
      `<rect x="${x0.toFixed(1)}" y="${(bottom - hgt).toFixed(1)}" width="${(slot - 16).toFixed(1)}" height="${hgt.toFixed(1)}" fill="${COLORS.bar}"><title>score ${i + 1}: ${k}</title></rect>`,
    );
    labels.push(boxedText(x0 + (slot - 16) / 2, bottom - hgt - 5, String(k), { anchor: 'middle', size: 11, bg: COLORS.card }));
    labels.push(text(x0 + (slot - 16) / 2, bottom + 16, String(i + 1), { anchor: 'middle' }));
  });
  body.push(`<line x1="${left}" y1="${bottom}" x2="${width - 30}" y2="${bottom}" stroke="${COLORS.border}"/>`);
  // The study's mean and this team's as lines first, the counts after them on their own background: no line crosses one.
  body.push(
    `<line x1="${xAt(REFERENCE.ratingsMean)}" y1="${top - 6}" x2="${xAt(REFERENCE.ratingsMean)}" y2="${bottom}" stroke="${COLORS.ref}" stroke-width="2" stroke-dasharray="4 3"/>`,
  );
  if (o.ratingsMean !== null)
    body.push(
      `<line x1="${xAt(o.ratingsMean)}" y1="${top - 6}" x2="${xAt(o.ratingsMean)}" y2="${bottom}" stroke="${COLORS.after}" stroke-width="2"/>`,
    );
  body.push(...labels);
  body.push(
    text(
      left,
      228,
      o.ratingsN
        ? `${o.ratingsN} ratings, mean ${o.ratingsMean!.toFixed(2)} (red); the study ${REFERENCE.ratingsMean} (dashed)`
        : `No ratings yet; the study's mean ${REFERENCE.ratingsMean} (dashed)`,
      { size: 11 },
    ),
  );
  return svg(width, height, '“This is what I would have said” — ratings 1–5', body);
}

/** Paired differences TeamFusion − usual (survey means, 1–5 scale) with their 95% intervals over teams, around 0. */
export function conditionsChart(e: Evaluation): string {
  const c = e.conditions;
  const width = 560;
  const left = 130;
  const right = width - 30;
  const top = 64;
  const rowH = 40;
  const rows: [string, { diff: number | null; low: number | null; high: number | null }][] = [
    ['representative', c.paired.representative],
    ['clarity', c.paired.clarity],
    ['satisfied', c.paired.satisfied],
  ];
  const axisY = top + rows.length * rowH + 4;
  const height = axisY + 60;
  const x = (v: number): number => left + ((Math.max(-4, Math.min(4, v)) + 4) / 8) * (right - left);
  const body: string[] = [
    text(16, 48, `${c.paired.teams} paired team${c.paired.teams === 1 ? '' : 's'}; dot: mean difference, bar: 95% interval over teams`, {
      size: 11,
    }),
  ];
  for (const t of [-4, -2, 0, 2, 4]) {
    body.push(
      `<line x1="${x(t)}" y1="${top - 6}" x2="${x(t)}" y2="${axisY}" stroke="${t === 0 ? COLORS.border : COLORS.grid}" stroke-width="${t === 0 ? 2 : 1}"/>`,
      text(x(t), axisY + 16, t > 0 ? `+${t}` : String(t), { anchor: 'middle', size: 11 }),
    );
  }
  body.push(text((left + right) / 2, axisY + 34, 'TeamFusion − usual way (survey points, 1–5 scale)', { anchor: 'middle', size: 11 }));
  rows.forEach(([label, d], i) => {
    const y = top + i * rowH + rowH / 2;
    body.push(text(left - 10, y + 4, label, { anchor: 'end' }));
    if (d.diff === null) {
      body.push(boxedText(left + 8, y + 4, 'no paired answers', { size: 11, bg: COLORS.card }));
      return;
    }
    if (d.low !== null && d.high !== null)
      body.push(`<line x1="${x(d.low)}" y1="${y}" x2="${x(d.high)}" y2="${y}" stroke="${COLORS.before}" stroke-width="3"/>`);
    body.push(`<circle cx="${x(d.diff)}" cy="${y}" r="6" fill="${COLORS.after}"><title>${label} ${d.diff.toFixed(2)}</title></circle>`);
  });
  return svg(width, height, 'TeamFusion against the usual way, paired within teams', body);
}

/**
 * Brief runs: the members' blind choices (TeamFusion's revised brief / the direct revision / tie) and the coverage of
 * their points (kept / changed / left out), each a stacked bar of counts with the numbers written beside it.
 */
export function briefChart(e: Evaluation): string {
  const b = e.overall.brief;
  const width = 560;
  const left = 130;
  const right = width - 30;
  const body: string[] = [];
  const bars: [string, [string, number, string][]][] = [
    [
      'blind choice',
      [
        ['TeamFusion', b.preference.teamfusion, COLORS.after],
        ['direct', b.preference.direct, COLORS.before],
        ['tie', b.preference.tie, COLORS.border],
      ],
    ],
    [
      'coverage',
      [
        ['kept', b.coverage.kept, COLORS.ref],
        ['changed', b.coverage.changed, '#f28e2b'],
        ['left out', b.coverage.leftOut, COLORS.after],
      ],
    ],
  ];
  bars.forEach(([label, parts], i) => {
    const y = 60 + i * 70;
    const total = parts.reduce((s, [, k]) => s + k, 0);
    body.push(text(left - 10, y + 21, label, { anchor: 'end' }));
    body.push(`<rect x="${left}" y="${y}" width="${right - left}" height="32" fill="${COLORS.grid}"/>`);
    let x0 = left;
    for (const [name, k, color] of parts) {
      if (!total || !k) continue;
      const w = ((right - left) * k) / total;
      body.push(
        `<rect x="${x0.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="32" fill="${color}"><title>${escapeXml(`${name}: ${k}`)}</title></rect>`,
      );
      x0 += w;
    }
    body.push(text(left, y + 50, total ? parts.map(([name, k]) => `${name} ${k}`).join(' · ') : 'none yet', { size: 11 }));
  });
  const p = b.preference.signTestP;
  body.push(
    text(
      16,
      212,
      `${b.runs} brief run${b.runs === 1 ? '' : 's'}, ${b.withBlindPair} with a blind pair; two-sided sign test over the choices that were not ties: ${p === null ? '—' : `p = ${p.toFixed(3)}`}`,
      { size: 11 },
    ),
  );
  return svg(width, 230, 'Brief runs: which revision the members chose, and their points', body);
}

export const CHART_FILES = {
  wBeforeAfter: 'w-before-after.svg',
  acceptance: 'acceptance.svg',
  ratings: 'ratings.svg',
  conditions: 'conditions.svg',
  brief: 'brief.svg',
} as const;

export function allCharts(e: Evaluation): Record<(typeof CHART_FILES)[keyof typeof CHART_FILES], string> {
  return {
    [CHART_FILES.wBeforeAfter]: wBeforeAfterChart(e),
    [CHART_FILES.acceptance]: acceptanceChart(e),
    [CHART_FILES.ratings]: ratingsChart(e),
    [CHART_FILES.conditions]: conditionsChart(e),
    [CHART_FILES.brief]: briefChart(e),
  } as Record<(typeof CHART_FILES)[keyof typeof CHART_FILES], string>;
}
