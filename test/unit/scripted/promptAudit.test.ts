/**
 * One prompt audit (issue 38, item 7): a fixed run against the scripted server (`npm run demo`'s answers) — a design review
 * of three rounds with a fork, its blind set and forecasts, its criteria; a brief review of two rounds with its baseline,
 * blind pair, forecasts, judge and criteria — and every request the server received, of every kind, checked:
 * - every "Image k" an edit prompt names is one of the images that edit carries (k ≤ its inputs), and the one the
 *   discussed directions named (its k-th input is that option or remix); a fork's side line too, and a side that is a
 *   candidate leads its own edit;
 * - every "Image …" label a chat request names is a candidate of the run, and a label shown with an image shows the same
 *   image in every request of the run;
 * - no request asks for JSON only and also sets a word limit ("at most N words");
 * - each proxy's request (its turns and its forecast) carries its own designer's words, and no other designer's words
 *   outside quoted data (JSON-quoted strings) and the transcript of what the others said; the control carries nobody's.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { requestedJsonSchema, requestTexts } from '../../support/openaiMock/autoResponder';
import { isObject } from '../../support/openaiMock/openapiSchema';
import { runFallback } from '../../support/openaiMock/runAnswers';
import type { RecordedRequest } from '../../support/openaiMock/types';
import { REPO_ROOT, useCliAgainstMock } from '../cli/buildCli';
import { SAMPLE, cleanupFixtures, tempDir } from '../review/fixtures';

interface Audited {
  kind: string;
  req: RecordedRequest;
  texts: string[];
  /** The run's candidate labels ("Image 7 (remix r1a)") and its members' names and words, for the run this request is of. */
  run: RunFacts;
}

interface RunFacts {
  labels: Set<string>;
  members: Array<{ id: string; name: string; words: string[] }>;
  /** Each remix's directions as discussed (the run's labels) and as sent to its edit (its inputs' numbers), with its inputs. */
  edits: Array<{ positional: string; discussed: string; from: string[] }>;
  /** "Image 7" → its option or remix id. */
  idOf: Map<string, string>;
}

interface RecordedRound {
  editingDirections?: string;
  editingDirectionsDiscussed?: string;
  remix?: { from: string[] };
  proposals?: Array<{ editingDirections: string; editingDirectionsDiscussed?: string; from: string[] }>;
}

/** What kind of request it is, from what it asks for. */
function kindOf(req: RecordedRequest): string {
  if (req.route === 'edit') {
    const prompt = isObject(req.body) && typeof req.body.prompt === 'string' ? req.body.prompt : '';
    return prompt.includes('This remix takes one side only') ? 'fork edit' : 'edit';
  }
  const schema = requestedJsonSchema(req.body)?.name;
  if (schema) return schema.replace(/^teamfusion_/, '');
  const texts = requestTexts(req.body);
  if (texts.some((t) => t.startsWith('You are role-playing '))) return 'turn';
  if (texts[0]?.startsWith("You revise a client's brief")) return 'baseline';
  return 'other';
}

/** The words of a request that are neither JSON-quoted data nor the transcript of what others said. */
function ownText(req: RecordedRequest): string {
  const messages = isObject(req.body) && Array.isArray(req.body.messages) ? req.body.messages : [];
  const kept: string[] = [];
  for (const m of messages) {
    if (!isObject(m)) continue;
    // A transcript line: `"Name": …` (a proxy), or a person's quoted words.
    if (m.role === 'user' && typeof m.content === 'string' && /^"(?:[^"\\]|\\.)*"(?: \(a guest[^)]*\))?: /.test(m.content)) continue;
    kept.push(...requestTexts({ messages: [m] }));
  }
  return kept.join('\n').replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

const PERSONA_NAME = /^You are role-playing "((?:[^"\\]|\\.)*)"/;
const fingerprint = (url: string): string => createHash('sha256').update(url).digest('hex').slice(0, 16);

/** The run's facts: its candidates' labels (run.json) and its members with their own words (rankings or comments). */
async function runFacts(review: string): Promise<RunFacts> {
  const [runId] = (await fs.readdir(path.join(review, 'runs'))).filter((x) => !x.startsWith('.'));
  const record = JSON.parse(await fs.readFile(path.join(review, 'runs', runId!, 'run.json'), 'utf8')) as {
    options: Array<{ id: string; label: string; file: string }>;
    iterations: RecordedRound[];
  };
  const labels = new Set(record.options.flatMap((o) => [o.label, `${o.label} (remix ${o.id})`]));
  const edits: RunFacts['edits'] = [];
  for (const it of record.iterations) {
    for (const p of it.proposals ?? [])
      if (p.editingDirectionsDiscussed)
        edits.push({ positional: p.editingDirections, discussed: p.editingDirectionsDiscussed, from: p.from });
    if (it.remix && it.editingDirections && it.editingDirectionsDiscussed)
      edits.push({ positional: it.editingDirections, discussed: it.editingDirectionsDiscussed, from: it.remix.from });
  }
  const idOf = new Map(record.options.map((o) => [o.label, o.id]));
  const members: RunFacts['members'] = [];
  const dir = (d: string): Promise<string[]> => fs.readdir(path.join(review, d)).catch(() => []);
  for (const f of await dir('rankings')) {
    const text = await fs.readFile(path.join(review, 'rankings', f), 'utf8');
    const doc = (f.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as {
      designer: string;
      ranking: Array<{ justification: string }>;
    };
    members.push({ id: f.replace(/\.\w+$/, ''), name: doc.designer, words: doc.ranking.map((r) => r.justification) });
  }
  for (const f of await dir('comments')) {
    const text = await fs.readFile(path.join(review, 'comments', f), 'utf8');
    const name = /^designer: (.+)$/m.exec(text)![1]!.trim();
    const body = text.replace(/^---[\s\S]*?---\n/, '');
    // Their sentences of some length, as a prompt would carry them (each line of the file as written).
    members.push({
      id: f.replace(/\.\w+$/, ''),
      name,
      words: body
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.length >= 40),
    });
  }
  return { labels, members, edits, idOf };
}

describe('prompt audit: every request of a fixed scripted run (issue 38, item 7)', function () {
  this.timeout(300_000);
  const rig = useCliAgainstMock({ checkSpec: true });
  const audited: Audited[] = [];
  after(cleanupFixtures);

  before(async () => {
    const cli = async (args: string[]): Promise<void> => {
      const r = await rig.run(args);
      assert.equal(r.code, 0, `teamfusion ${args.join(' ')}: ${r.stderr}${r.stdout}`);
    };
    const session = async (sample: string, run: string[], after: (review: string, runId: string) => string[][]): Promise<void> => {
      const review = path.join(await tempDir('tf-prompt-audit-'), 'review');
      await fs.cp(sample, review, { recursive: true });
      rig.mock.reset();
      rig.mock.setFallback(runFallback('Scripted reply:'));
      await cli(['run', review, ...run]);
      const [runId] = (await fs.readdir(path.join(review, 'runs'))).filter((x) => !x.startsWith('.'));
      for (const args of after(review, runId!)) await cli(args);
      const facts = await runFacts(review);
      for (const req of rig.mock.requests.filter((r) => r.route === 'chat' || r.route === 'edit')) {
        audited.push({
          kind: kindOf(req),
          req,
          texts: req.route === 'edit' ? [String((req.body as { prompt?: unknown }).prompt ?? '')] : requestTexts(req.body),
          run: facts,
        });
      }
      assert.deepEqual(rig.mock.specErrors(), []);
    };
    await session(SAMPLE, ['--iterations', '3', '--turns', '1'], (review, id) => [
      ['rerank', review, id, '--yes'],
      ['criteria', review],
    ]);
    // A round that does not fork: its one remix's edit; and the together phase of two turns.
    await session(SAMPLE, ['--iterations', '2', '--turns', '2', '--forks', 'off'], () => []);
    await session(
      path.join(REPO_ROOT, 'samples', 'brief-review'),
      ['--task', 'brief', '--iterations', '2', '--turns', '1'],
      (review, id) => [
        ['rerank', review, id, '--yes'],
        ['judge', review, id],
        ['criteria', review],
      ],
    );
  });

  it('renders every kind of request: turns, remix agent, edits, forks, final pick, baseline, brief agent, forecasts, judge, criteria', () => {
    const kinds = new Set(audited.map((a) => a.kind));
    for (const k of ['turn', 'remix', 'edit', 'fork edit', 'final_pick', 'baseline', 'brief', 'forecast', 'judge', 'criteria'])
      assert.ok(kinds.has(k), `no ${k} request among ${[...kinds].join(', ')}`);
  });

  it('every "Image k" of an edit prompt\'s directions is one of the images that edit carries', () => {
    for (const a of audited.filter((x) => x.kind.endsWith('edit'))) {
      const directions = a.texts[0]!.replace(/\n?Decision: [^\n]*This remix takes one side only[^\n]*/g, '');
      for (const m of directions.matchAll(/\bImage (\d+)\b/g))
        assert.ok(Number(m[1]) <= a.req.files.length, `"Image ${m[1]}" in an edit of ${a.req.files.length} images: ${directions}`);
    }
  });

  it('every "Image k" of an edit prompt\'s directions means the image the discussed directions named (its k-th input)', () => {
    let checked = 0;
    const noDecision = (t: string): string =>
      t
        .replace(/\r\n/g, '\n')
        .replace(/\n?Decision: [^\n]*This remix takes one side only[^\n]*/g, '')
        .trim();
    for (const a of audited.filter((x) => x.kind.endsWith('edit'))) {
      const sent = a.texts[0]!.replace(/\r\n/g, '\n').trim();
      const e = a.run.edits.find((x) => x.positional.trim() === sent);
      assert.ok(e, `the edit prompt is a recorded remix's directions: ${sent.slice(0, 200)}`);
      const named = [...noDecision(e.discussed).matchAll(/\bImage \d+/g)].map((m) => a.run.idOf.get(m[0]));
      const numbers = [...noDecision(sent).matchAll(/\bImage (\d+)/g)].map((m) => Number(m[1]));
      assert.equal(numbers.length, named.length, `${sent}\n— against —\n${e.discussed}`);
      numbers.forEach((k, i) =>
        assert.equal(
          e.from[k - 1],
          named[i],
          `"Image ${k}" of the edit is input ${e.from[k - 1]}, but the discussed directions named ${named[i]}`,
        ),
      );
      checked++;
    }
    assert.ok(checked >= 5, `${checked} edits checked`);
  });

  // Issue 38, item 2: one renumbering step for every edit prompt, the fork's side line included.
  it("a fork's side line names its side by the edit's own numbers, and a candidate side leads its edit", () => {
    for (const a of audited.filter((x) => x.kind === 'fork edit')) {
      const sent = a.texts[0]!.replace(/\r\n/g, '\n').trim();
      const decision = /Decision: [^\n]*/.exec(sent)![0];
      for (const m of decision.matchAll(/\bImage (\d+)\b/g))
        assert.ok(Number(m[1]) <= a.req.files.length, `"Image ${m[1]}" in an edit of ${a.req.files.length} images: ${decision}`);
      const e = a.run.edits.find((x) => x.positional.trim() === sent)!;
      const side = /This remix takes one side only: (Image \d+) leads/.exec(e.discussed)?.[1];
      const k = Number(/This remix takes one side only: Image (\d+) leads/.exec(sent)?.[1]);
      if (side) {
        assert.equal(e.from[0], a.run.idOf.get(side), `the side "${side} leads" leads its edit`);
        assert.equal(e.from[k - 1], a.run.idOf.get(side), `the side line's "Image ${k}" is ${side}`);
      }
    }
  });

  it('every "Image …" label of a chat request is a candidate of its run, and a label shown with an image is the same image in every request', () => {
    const shown = new Map<string, string>();
    for (const a of audited.filter((x) => x.req.route === 'chat')) {
      for (const t of a.texts) {
        for (const m of t.matchAll(/\bImage \d+(?: \(remix [\w-]+\))?/g))
          assert.ok(a.run.labels.has(m[0]), `${a.kind}: "${m[0]}" is no candidate of the run`);
      }
      const messages = isObject(a.req.body) && Array.isArray(a.req.body.messages) ? a.req.body.messages : [];
      for (const msg of messages) {
        if (!isObject(msg) || !Array.isArray(msg.content)) continue;
        let label = '';
        for (const p of msg.content) {
          if (!isObject(p)) continue;
          if (typeof p.text === 'string') label = p.text;
          else if (isObject(p.image_url) && typeof p.image_url.url === 'string' && /^Image \d+/.test(label)) {
            const key = `${[...a.run.labels].join()}|${label}`;
            const print = fingerprint(p.image_url.url);
            assert.equal(shown.get(key) ?? print, print, `${a.kind}: ${label} shows another image than before`);
            shown.set(key, print);
          }
        }
      }
    }
  });

  const asksJsonOnly = (t: string): boolean => /\bJSON only\b|\bonly (?:valid )?JSON\b/i.test(t);
  const wordLimit = (t: string): RegExpExecArray | null => /\bat most \d+ words\b/i.exec(t);
  it('no request asks for JSON only and sets a word limit', () => {
    for (const a of audited) {
      const all = a.texts.join('\n');
      assert.ok(!(asksJsonOnly(all) && wordLimit(all)), `${a.kind}: JSON only and "${wordLimit(all)?.[0]}"`);
    }
  });

  /** The control's forecast requests: no persona in them. */
  const controls = (): Audited[] =>
    audited.filter((a) => a.kind === 'forecast' && !a.texts.some((t) => t.startsWith('You are role-playing ')));
  /** The control carries no member's name or id, nor (`words`) their own words. */
  const checkControl = (a: Audited, words: boolean): void => {
    const all = a.texts.join('\n');
    for (const m of a.run.members) {
      assert.ok(!all.includes(m.name) && !new RegExp(`\\b${m.id}\\b`).test(all), `the control names ${m.name}`);
      if (words) for (const w of m.words) assert.ok(!all.includes(w.slice(0, 60)), `the control carries ${m.name}'s words`);
    }
  };
  it("the design control carries no member's name, id or words", () => {
    const design = controls().filter((a) => a.run.labels.size > 0);
    assert.ok(design.length >= 1);
    design.forEach((a) => checkControl(a, true));
  });

  // The revisions it compares are its material: the points they carry are the members', so only names and ids are checked.
  it("the brief control carries no member's name or id", () => {
    const brief = controls().filter((a) => a.run.labels.size === 0);
    assert.ok(brief.length >= 1);
    brief.forEach((a) => checkControl(a, false));
  });

  it("each proxy's request carries its own designer's words and no other designer's words outside quoted data and the transcript", () => {
    let checked = 0;
    for (const a of audited) {
      const persona = a.texts.filter((t) => t.startsWith('You are role-playing ')).pop();
      const name = persona && PERSONA_NAME.exec(persona)?.[1];
      const me = name && a.run.members.find((m) => m.name === JSON.parse(`"${name}"`));
      if (!me) continue;
      checked++;
      const all = a.texts.join('\n');
      assert.ok(
        me.words.some((w) => all.includes(JSON.stringify(w).slice(1, -1)) || all.includes(w)),
        `${a.kind} of ${me.name}: their own words are not in it`,
      );
      const outside = ownText(a.req);
      for (const other of a.run.members.filter((m) => m !== me)) {
        for (const w of other.words)
          assert.ok(
            !outside.includes(w.slice(0, 60)),
            `${a.kind} of ${me.name}: ${other.name}'s words outside quoted data: ${w.slice(0, 60)}`,
          );
      }
    }
    assert.ok(checked >= 20, `${checked} proxy requests checked`);
  });
});
