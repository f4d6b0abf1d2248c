/**
 * Scripted answers made from the run itself (the demo's and `npm run scripted-server`'s mode; tests keep the canned ones):
 * - a proxy speaks from its own designer's ranking and reasons, as its persona gives them, and orders only this round's
 *   candidates, in every round: a remix stands where what it is made from and the side it takes put it in that designer's
 *   own view (personaView.ts), said with that designer's words quoted from their file;
 * - the remix agent's consensus (and the final pick) is the Borda order of the orders the proxies stated in this round,
 *   ties to the one more of them put first; agreements,
 *   disagreements and decision points name the designers who hold them; `backed` is each one's first;
 * - an image edit is a visible blend of its input images, a fork's side leading its own (runImage.ts);
 * - a brief run's agent and judge answer from the brief and the members' comments (runBriefAnswers.ts);
 * - a forecast answers as its persona would, the control as nobody in particular (forecastAnswers.ts).
 * Every plain answer starts with `label` (e.g. "Scripted reply:"), so it can never pass for a model's.
 */
import { defaultReply, requestedJsonSchema } from './autoResponder';
import { forecastValue, learnIds, learnImages, type SeenImages } from './forecastAnswers';
import { isObject } from './openapiSchema';
import { personaView, type PersonaView } from './personaView';
import { idsOf, LABEL, ORDER_LEAD, personaOf, remixFacts, roundLabels, statedOrders, type MadeFrom } from './requestFacts';
import { briefRunFallback } from './runBriefAnswers';
import { sideLead } from './runImage';
import { asksForPool, checklistValue, checkValue, poolProposals, poolRankingValue } from './runPoolAnswers';
import type { MockFallback, MockReply, RecordedRequest } from './types';

const list = (xs: string[]): string => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const ordinal = (n: number): string => ORDINALS[n - 1] ?? `number ${n}`;
/** A sentence's end: a full stop unless a quoted sentence already ends it. */
const ended = (s: string): string => (/[.!?]”?$/.test(s) ? s : `${s}.`);

/** Why a candidate stands where it does for this designer: their own words on it, or on what leads it (a remix). */
function because(view: PersonaView, label: string, round: readonly string[]): string | undefined {
  const o = view.origin(label);
  const words = o && view.words(o);
  if (!o || !words) return undefined;
  if (o === label) return `in my own words, “${words}”`;
  const named = round.includes(o) ? `, ${o}` : '';
  return `it is led by my ${ordinal(view.rank(o)!)} choice${named}, of which I wrote “${words}”`;
}

/** A remix of this round: the side it takes (named when everything it names is in this round), what leads it, its place. */
function remixSentence(view: PersonaView, remix: string, m: MadeFrom, round: readonly string[]): string {
  const why = because(view, remix, round);
  if (!why) return `${remix}: I cannot tell what it is made from, so it goes low for me.`;
  const namesOnlyThisRound = m.side !== undefined && [...m.side.matchAll(new RegExp(LABEL, 'g'))].every((x) => round.includes(x[0]));
  const side = m.side === undefined ? '' : namesOnlyThisRound ? ` takes the side “${m.side}”, and` : ' takes one side of a fork, and';
  return `${remix}${side} ${why.replace(/^it /, '')}, so it is ${ordinal(view.order.indexOf(remix) + 1)} in my order.`;
}

/** A proxy's turn: its designer's order of the round, why the first and the last, each remix in their view, one change. */
export function proxyTurn(body: unknown): string | undefined {
  const p = personaOf(body);
  const round = roundLabels(body);
  if (!p || round.length === 0) return undefined;
  const facts = remixFacts(body);
  const view = personaView(p, round, facts);
  const { order } = view;
  const [first, second] = order;
  const last = order[order.length - 1]!;
  const parts = [`${ORDER_LEAD} ${order.join(', ')}.`];
  const rankOfFirst = view.rank(first!);
  const out = rankOfFirst === undefined ? [] : p.ranking.filter((r) => !r.inRunning && r.rank < rankOfFirst).map((r) => r.label);
  // Images out of the running are not named: a proxy speaks about this round's candidates only.
  const leads = out.length
    ? `With my ${out.length === 1 ? 'first choice' : `first ${out.length} choices`} out of the running, ${first} is the best left for me`
    : `${first} leads for me`;
  parts.push(ended(`${leads}: ${because(view, first!, round) ?? 'it keeps what I ranked highest'}`));
  if (last !== first) parts.push(ended(`${last} comes last: ${because(view, last, round) ?? 'I cannot tell what it is made from'}`));
  for (const remix of order.filter((l) => facts.has(l) && l !== first && l !== last))
    parts.push(remixSentence(view, remix, facts.get(remix)!, round));
  // The previous speaker of this round, when they stated an order: agree or differ with them by name.
  const others = [...statedOrders(body)].filter(([who]) => who !== p.name);
  const prev = others[others.length - 1];
  if (prev && prev[1][0]) {
    parts.push(
      prev[1][0] === first
        ? `I am with ${prev[0]} on ${first}.`
        : `${prev[0]} puts ${prev[1][0]} first; I still would not, for the reason above.`,
    );
  }
  if (second)
    parts.push(
      `To combine them, I would keep ${first}'s composition and bring in what works in ${second}, and check the type still reads when cropped to a square.`,
    );
  return parts.join(' ');
}

/** Borda over the stated orders (points = candidates − position); ties to the one more put first, then the round's order. */
export function bordaOrder(orders: string[][], round: string[]): string[] {
  const points = new Map(round.map((l) => [l, 0]));
  const firsts = new Map(round.map((l) => [l, 0]));
  for (const order of orders) {
    order.forEach((l, i) => points.has(l) && points.set(l, points.get(l)! + (round.length - i)));
    if (order[0] !== undefined && firsts.has(order[0])) firsts.set(order[0], firsts.get(order[0])! + 1);
  }
  return [...round].sort(
    (a, b) => points.get(b)! - points.get(a)! || firsts.get(b)! - firsts.get(a)! || round.indexOf(a) - round.indexOf(b),
  );
}

/** The remix agent's (or the final pick's) answer, made from this round's stated orders; undefined when it has none. */
export function facilitatorValue(
  body: unknown,
  schema: Record<string, unknown>,
  base: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const { candidates, designers } = idsOf(body);
  const round = [...candidates.keys()];
  const orders = new Map(
    [...statedOrders(body)].filter(([who]) => designers.has(who)).map(([who, o]) => [who, o.filter((l) => candidates.has(l))]),
  );
  if (round.length === 0 || orders.size === 0) return undefined;
  const props = isObject(schema.properties) ? schema.properties : {};
  const rankingSchema = isObject(props.ranking) ? props.ranking : {};
  const k = typeof rankingSchema.maxItems === 'number' ? rankingSchema.maxItems : round.length;
  const consensus = bordaOrder([...orders.values()], round);
  const top = consensus.slice(0, k);
  const id = (l: string): string => candidates.get(l)!;
  const whoPut = (test: (o: string[], l: string) => boolean, l: string): string[] =>
    [...orders].filter(([, o]) => test(o, l)).map(([who]) => who);
  const firstFor = (l: string): string[] => whoPut((o, x) => o[0] === x, l);
  const value: Record<string, unknown> = { ...base, ranking: top.map(id) };
  if ('reasons' in props) {
    value.reasons = top.map((l, i) => {
      const firsts = firstFor(l);
      return {
        candidate: id(l),
        reason: `Place ${i + 1} on the Borda count of this round's orders${firsts.length ? `; first for ${list(firsts)}` : '; nobody put it first'}.`,
      };
    });
  }
  const [a, b = a, c = b] = top;
  const parts = {
    composition: `Keep the layout and product size of ${a}; take the calmer spacing of ${b}; avoid crowding the frame.`,
    visualElements: `Keep the main visual of ${a}; bring in the strongest element of ${b} in a supporting role; avoid adding new objects.`,
    colour: `Start from the palette of ${a} and move it towards the warmth of ${b}; avoid a third dominant colour.`,
    typography: `Use the typography of ${a}, at most two weights; keep the copy as short as in ${c}.`,
  };
  if ('editingDirections' in props) {
    const ed = props.editingDirections;
    value.editingDirections = isObject(ed) && ed.type === 'string' ? Object.values(parts).join('\n') : parts;
  }
  if (Array.isArray(base.remixes) && asksForPool(schema)) {
    // A pool (issue 41): each proposal its own angle; asked once more (teamfusion_pool), the next angles.
    value.remixes = poolProposals(top, id, base.remixes.length, 'ranking' in props ? 0 : base.remixes.length);
  } else if (Array.isArray(base.remixes)) {
    value.remixes = base.remixes.map((_, i) => {
      const from = i === 0 ? top : [top[Math.min(i, top.length - 1)]!, ...top.filter((_l, j) => j !== Math.min(i, top.length - 1))];
      const lead = from[0]!;
      return {
        idea: i === 0 ? `combine the team's top ${top.length}` : `push ${lead} further`,
        from: from.map(id),
        editingDirections: { ...parts, composition: `Start from the layout of ${lead} (proposal ${i + 1}); avoid crowding the frame.` },
      };
    });
  }
  if ('references' in props) value.references = [];
  const names = [...orders.keys()];
  value.agreements = round
    .map((l) => ({ l, who: whoPut((o, x) => o.indexOf(x) >= 0 && o.indexOf(x) < 2, l) }))
    .filter((x) => x.who.length >= 2)
    .map((x) => `${list(x.who)} ${x.who.length === names.length ? 'all put' : 'put'} ${x.l} in their top two.`);
  value.disagreements = round
    .map((l) => ({ l, first: firstFor(l), last: whoPut((o, x) => o[o.length - 1] === x, l) }))
    .filter((x) => x.first.length > 0 && x.last.length > 0)
    .map((x) => `${x.l} is first for ${list(x.first)} and last for ${list(x.last)}.`);
  const leaders = [...new Set([...orders.values()].map((o) => o[0]!))].sort((x, y) => firstFor(y).length - firstFor(x).length);
  value.decisionPoints =
    leaders.length >= 2
      ? [
          {
            question: `Which candidate should lead: ${list(leaders).replace(/ and (?=[^,]*$)/, ' or ')}?`,
            positions: leaders.map((l) => ({ position: `${l} leads`, heldBy: firstFor(l).map((n) => designers.get(n)!) })),
          },
        ]
      : [];
  if ('backed' in props)
    value.backed = Object.fromEntries([...designers].map(([name, did]) => [did, orders.get(name)?.[0] ? id(orders.get(name)![0]!) : null]));
  return value;
}

/** The demo's fallback: answers made from the run, each plain one starting with `label`; the rest as the mock's default. */
export function runFallback(label: string): MockFallback {
  const brief = briefRunFallback(label);
  const seen: SeenImages = { labels: new Map(), facts: new Map(), ids: new Map() };
  return (req: RecordedRequest): MockReply | undefined => {
    if (req.route === 'chat') {
      const forecast = forecastValue(req.body, requestedJsonSchema(req.body), seen);
      if (forecast) return { kind: 'json', value: forecast };
      learnImages(seen, req.body);
      learnIds(seen, req.body);
    }
    const briefAnswer = brief(req);
    if (briefAnswer) return briefAnswer;
    if (req.route === 'edit') {
      const lead = sideLead(isObject(req.body) && typeof req.body.prompt === 'string' ? req.body.prompt : '', req.files.length);
      return { kind: 'image', blend: true, ...(lead === undefined ? {} : { lead }) };
    }
    const wanted = requestedJsonSchema(req.body);
    const fallback = defaultReply(req);
    if (wanted?.name === 'teamfusion_checklist') return { kind: 'json', value: checklistValue(req.body) };
    if (wanted?.name === 'teamfusion_check' && isObject(wanted.schema)) {
      const props = isObject(wanted.schema.properties) ? wanted.schema.properties : {};
      const items =
        isObject(props.checks) && isObject(props.checks.items) && isObject(props.checks.items.properties)
          ? props.checks.items.properties
          : {};
      const ids = isObject(items.item) && Array.isArray(items.item.enum) ? items.item.enum.map(String) : [];
      return { kind: 'json', value: checkValue(ids, label) };
    }
    if (wanted?.name === 'teamfusion_pool_ranking' && isObject(wanted.schema)) {
      const props = isObject(wanted.schema.properties) ? wanted.schema.properties : {};
      const items = isObject(props.ranking) && isObject(props.ranking.items) ? props.ranking.items : {};
      return { kind: 'json', value: poolRankingValue(req.body, Array.isArray(items.enum) ? items.enum.map(String) : []) };
    }
    if (
      wanted &&
      (wanted.name === 'teamfusion_remix' || wanted.name === 'teamfusion_final_pick' || wanted.name === 'teamfusion_pool') &&
      fallback.kind === 'json' &&
      isObject(wanted.schema)
    ) {
      const value = facilitatorValue(req.body, wanted.schema, isObject(fallback.value) ? fallback.value : {});
      return value ? { kind: 'json', value } : fallback;
    }
    if (fallback.kind !== 'chat') return fallback;
    const turn = proxyTurn(req.body);
    return { kind: 'chat', content: `${label} ${turn ?? fallback.content}` };
  };
}
