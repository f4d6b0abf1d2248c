/**
 * evaluate's SVG charts: no line drawn across the chart (a reference line such as the study's dashed 88% or 4.06, a team's
 * mean, a grid line) crosses a label's text — a label in a line's way is drawn after it, on a background that covers it.
 */
import { strict as assert } from 'node:assert';
import { acceptanceChart, conditionsChart, ratingsChart, wBeforeAfterChart } from '../../../src/core/evaluation/charts';
import type { Evaluation } from '../../../src/core/evaluation/evaluate/evaluate';

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}
type Element =
  | { kind: 'line'; at: number; x: number; y0: number; y1: number }
  | { kind: 'bg'; at: number; box: Box }
  | { kind: 'text'; at: number; s: string; box: Box };

const num = (tag: string, name: string): number => Number(new RegExp(`\\b${name}="([-\\d.]+)"`).exec(tag)![1]);

/** The chart's vertical lines, label backgrounds and texts, in drawing order (a text's extent: 0.6 em a character). */
function elements(svg: string): Element[] {
  const out: Element[] = [];
  for (const m of svg.matchAll(/<line [^>]*>|<rect class="label-bg" [^>]*>|<text [^>]*>([^<]*)<\/text>/g)) {
    const tag = m[0];
    if (tag.startsWith('<line')) {
      if (num(tag, 'x1') === num(tag, 'x2'))
        out.push({
          kind: 'line',
          at: m.index,
          x: num(tag, 'x1'),
          y0: Math.min(num(tag, 'y1'), num(tag, 'y2')),
          y1: Math.max(num(tag, 'y1'), num(tag, 'y2')),
        });
    } else if (tag.startsWith('<rect')) {
      const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((n) => num(tag, n)) as [number, number, number, number];
      out.push({ kind: 'bg', at: m.index, box: { x0: x, x1: x + w, y0: y, y1: y + h } });
    } else {
      const s = m[1]!.replace(/&[a-z]+;/g, '&');
      const size = num(tag, 'font-size');
      const w = s.length * size * 0.6;
      const x = num(tag, 'x');
      const anchor = /text-anchor="(\w+)"/.exec(tag)?.[1] ?? 'start';
      const x0 = anchor === 'end' ? x - w : anchor === 'middle' ? x - w / 2 : x;
      out.push({ kind: 'text', at: m.index, s, box: { x0, x1: x0 + w, y0: num(tag, 'y') - size * 0.8, y1: num(tag, 'y') + size * 0.2 } });
    }
  }
  return out;
}

/** Labels crossed by a line that is drawn over them, or that have no background covering them. */
function crossed(svg: string): string[] {
  const els = elements(svg);
  const problems: string[] = [];
  els.forEach((t, i) => {
    if (t.kind !== 'text') return;
    const bg = els[i - 1]?.kind === 'bg' ? (els[i - 1] as { box: Box }).box : undefined;
    const covered = bg !== undefined && bg.x0 <= t.box.x0 && bg.x1 >= t.box.x1 && bg.y0 <= t.box.y0 && bg.y1 >= t.box.y1;
    for (const l of els) {
      if (l.kind !== 'line' || l.x <= t.box.x0 || l.x >= t.box.x1 || l.y1 <= t.box.y0 || l.y0 >= t.box.y1) continue;
      if (!covered || l.at > t.at) problems.push(`"${t.s}" is crossed by the line at x = ${l.x}`);
    }
  });
  return problems;
}

const evaluation = (o: { top1: number | null; top2: number | null; ratings: number[]; mean: number | null }): Evaluation =>
  ({
    reviews: [],
    skipped: [],
    overall: {
      top1Rate: o.top1,
      top2Rate: o.top2,
      rerankedRuns: 3,
      ratingsDistribution: o.ratings,
      ratingsN: o.ratings.reduce((s, k) => s + k, 0),
      ratingsMean: o.mean,
    },
    conditions: {
      paired: {
        teams: 0,
        representative: { diff: null, low: null, high: null },
        clarity: { diff: null, low: null, high: null },
        satisfied: { diff: null, low: null, high: null },
      },
    },
  }) as unknown as Evaluation;

describe('chart labels are never crossed by a line', () => {
  it('acceptance.svg: "100%" beside the study\'s dashed 88% line, and every other value, stay readable', () => {
    for (const [top1, top2] of [
      [1, 1],
      [0.5, 0.88],
      [0.9, 0.86],
      [0, 0],
      [null, null],
    ] as const) {
      assert.deepEqual(
        crossed(acceptanceChart(evaluation({ top1, top2, ratings: [0, 0, 0, 0, 0], mean: null }))),
        [],
        `top1 ${top1}, top2 ${top2}`,
      );
    }
  });

  it('ratings.svg: the "0" under the study\'s 4.06 line and the team\'s mean line stay readable', () => {
    for (const [ratings, mean] of [
      [[0, 0, 1, 0, 4], 4.6],
      [[1, 2, 3, 4, 5], 3.67],
      [[0, 0, 0, 3, 0], 4],
      [[0, 0, 0, 0, 0], null],
    ] as const) {
      assert.deepEqual(
        crossed(ratingsChart(evaluation({ top1: null, top2: null, ratings: [...ratings], mean }))),
        [],
        `ratings ${ratings.join(',')}`,
      );
    }
  });

  it('the other charts too (conditions with no paired answers, W before → after with no run)', () => {
    const e = evaluation({ top1: null, top2: null, ratings: [0, 0, 0, 0, 0], mean: null });
    assert.deepEqual(crossed(conditionsChart(e)), []);
    assert.deepEqual(crossed(wBeforeAfterChart(e)), []);
  });

  it('the check finds a crossed label (a line drawn over a bare text)', () => {
    const svg =
      '<text x="100" y="50" font-family="x" font-size="12" text-anchor="middle" fill="#000">100%</text>\n<line x1="100" y1="30" x2="100" y2="70" stroke="#2e7d32"/>';
    assert.deepEqual(crossed(svg), ['"100%" is crossed by the line at x = 100']);
  });
});
