/**
 * The scripted demo's answers in a brief run, made from the run's own texts: a member's proxy speaks from that member's
 * quoted comment; the facilitator's revised brief is the client's brief plus one line from each member's comment (each
 * carried verbatim, so coverage quotes can be checked), with the members' questions as open questions; the direct
 * baseline is the brief with the comments appended — both open with the label and one neutral heading, so a blind pair of them
 * says nothing of which is which; the judge always prefers the brief shown as A — the position bias the
 * two orders exist to catch, so every dimension comes out a tie. Every plain answer starts with `label`.
 */
import { requestedJsonSchema, requestTexts } from './autoResponder';
import { memberIdsOf } from './briefAnswers';
import { isObject } from './openapiSchema';
import type { MockFallback, MockReply, RecordedRequest } from './types';

const sentences = (text: string): string[] =>
  text
    .replace(/^#.*$/gm, '')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);

/** The client's brief as the request quotes it. */
function clientBrief(body: unknown): string {
  const text = requestTexts(body).find((t) => t.startsWith("The client's brief:")) ?? '';
  return text
    .replace(/^The client's brief:\s*/, '')
    .split('\n\n---\n\n')[0]!
    .split(/\n\nThe team members' comments/)[0]!
    .trim();
}

/** Each member's comment as the facilitator's instructions quote it (`- "id": "<json>"`), with their name. */
function commentsOf(body: unknown): Array<{ id: string; name: string; text: string }> {
  const all = requestTexts(body).join('\n');
  const names = new Map<string, string>();
  for (const m of (/^Member ids: (.*)$/m.exec(all)?.[1] ?? '').matchAll(/"([^"]+)" = ([^"(,]+)/g))
    names.set(m[1]!, m[2]!.trim().replace(/\.$/, ''));
  const out: Array<{ id: string; name: string; text: string }> = [];
  for (const m of all.matchAll(/^- "([^"]+)": ("(?:[^"\\]|\\.)*")$/gm)) {
    try {
      out.push({ id: m[1]!, name: names.get(m[1]!) ?? m[1]!, text: JSON.parse(m[2]!) as string });
    } catch {
      // not a quoted comment
    }
  }
  return out;
}

/** A member's proxy: the two first sentences of their own comment, said as theirs. */
function memberTurn(body: unknown): string | undefined {
  const persona = requestTexts(body)
    .filter((t) => t.startsWith('You are role-playing '))
    .pop();
  const quoted = persona && /own comments on the brief \([^)]*\): ("(?:[^"\\]|\\.)*")/.exec(persona)?.[1];
  if (!quoted) return undefined;
  const said = sentences(JSON.parse(quoted) as string);
  // The round is said in the turn's own message, after the member's block.
  const round = /^Round (\d+) of/m.exec(requestTexts(body).join('\n'))?.[1] ?? '1';
  const lead =
    round === '1' ? 'From my reading of the brief:' : `On the revised brief of round ${Number(round) - 1}: my point still stands —`;
  return `${lead} ${said.slice(0, 2).join(' ')}`;
}

function revisedBriefValue(req: RecordedRequest, label: string): Record<string, unknown> {
  const ids = memberIdsOf(req.body);
  const comments = commentsOf(req.body).filter((c) => ids.includes(c.id));
  const points = comments.map((c) => ({ ...c, point: sentences(c.text)[0] ?? c.text.trim() }));
  const questions = comments.flatMap((c) =>
    sentences(c.text)
      .filter((s) => s.endsWith('?'))
      .map((q) => `${q} (${c.name})`),
  );
  const brief = clientBrief(req.body);
  const revisedBrief = [
    // Both revisions open alike (the label, then one neutral heading), so the blind pair says nothing of which is which.
    label,
    '',
    '# Revised brief',
    '',
    brief.replace(/^# .*\n+/, ''),
    '',
    '## What the team asks of it',
    '',
    ...points.map((p) => `- ${p.point}`),
    '',
    '## Open questions for the client',
    '',
    ...(questions.length ? questions.map((q) => `- ${q}`) : ['- None raised.']),
    '',
  ].join('\n');
  return {
    revisedBrief,
    agreements: [],
    disagreements:
      points.length >= 2
        ? [{ question: 'What should the revision put first?', positions: points.map((p) => ({ position: p.point, heldBy: [p.id] })) }]
        : [],
    tradeOffs: [],
    openQuestions: questions,
    coverage: points.map((p) => ({ designer: p.id, point: p.point, status: 'kept', quote: p.point })),
  };
}

/** The brief run's answers (undefined for every other request). */
export function briefRunFallback(label: string): MockFallback {
  return (req): MockReply | undefined => {
    if (req.route !== 'chat') return undefined;
    const wanted = requestedJsonSchema(req.body);
    if (wanted?.name === 'teamfusion_brief') return { kind: 'json', value: revisedBriefValue(req, label) };
    if (wanted?.name === 'teamfusion_judge') {
      const dimension = /Dimension: ([a-z ]+?)\./i.exec(requestTexts(req.body).join('\n'))?.[1] ?? 'this dimension';
      return {
        kind: 'json',
        value: {
          reason: `${label} the brief shown as A reads better on ${dimension} (a scripted judge that always prefers A).`,
          better: 'A',
        },
      };
    }
    const system =
      isObject(req.body) && Array.isArray(req.body.messages) && isObject(req.body.messages[0]) ? req.body.messages[0].content : '';
    if (typeof system === 'string' && system.startsWith("You revise a client's brief")) {
      const text = requestTexts(req.body).join('\n');
      const members = [...text.matchAll(/^- (.+?)'s own comments on the brief \([^)]*\): ("(?:[^"\\]|\\.)*")$/gm)].map(
        (m) => `- ${m[1]}: ${sentences(JSON.parse(m[2]!) as string)[0] ?? ''}`,
      );
      return {
        kind: 'chat',
        content: `${label}\n\n# Revised brief\n\n${clientBrief(req.body).replace(/^# .*\n+/, '')}\n\n## The team's comments, taken in\n\n${members.join('\n')}\n`,
      };
    }
    const turn = memberTurn(req.body);
    return turn ? { kind: 'chat', content: `${label} ${turn}` } : undefined;
  };
}
