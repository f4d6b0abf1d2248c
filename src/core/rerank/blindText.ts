/**
 * A blind revision says nothing of where it came from (issue 38, item 4): before a brief run's revised brief and its
 * direct baseline become rerank/A.md and B.md, every heading or short line naming the method (TeamFusion, the team's
 * process, a direct revision, the baseline, the scripted server), a round or a model is taken out — a parenthesis that
 * names it ("Revised brief (round 2)" → "Revised brief"), or the whole line when it still names it after that. A long
 * paragraph is the revision's own matter and is kept. Each change is returned, for the set's key to record.
 */

/** One line changed: its number in the text as written (1-based), what it was, and what it is now (absent: removed). */
export interface BlindRemoval {
  line: number;
  was: string;
  now?: string;
}

/** Longer than this, a line that is not a heading is the revision's own text, not a label, and is kept. */
const LABEL_MAX = 160;

const MODEL_WORDS = String.raw`gpt-?[\w.-]*|o\d(?:-[\w-]+)?|llama[\w.-]*|llama\.cpp|claude[\w.-]*|gemini[\w.-]*|mistral[\w.-]*|qwen[\w.-]*|phi-\d[\w.-]*|deepseek[\w.-]*|ollama|lm studio|chatgpt`;
const METHOD_WORDS =
  String.raw`(?:round|iteration|pass)\s*\d+(?:\s*(?:of|/)\s*\d+)?|baseline|team\s*fusion|scripted|the team's (?:process|discussion|revision)|` +
  String.raw`direct(?:ly)?\s+(?:revision|revised|rewrite|written|version|baseline|from)|(?:written|revised|rewritten|made)\s+directly|` +
  String.raw`(?:written|generated|drafted|revised|produced|made)\s+(?:by|with)\s+(?:an?\s+|the\s+)?(?:model|ai|llm|assistant|language model|proxies|the team)`;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The method, round and model words as one pattern; `models` adds the run's own model names. */
function methodPattern(models: readonly string[]): RegExp {
  const own = models.filter((m) => m.trim().length >= 2).map(escape);
  return new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${[METHOD_WORDS, MODEL_WORDS, ...own].join('|')})(?![\p{L}\p{N}])`, 'iu');
}

/** The text without what names its method, round or model, and what was changed. */
export function blindText(text: string, models: readonly string[] = []): { text: string; removed: BlindRemoval[] } {
  const names = methodPattern(models);
  const lone = /^\s*[([]\s*direct\s*[)\]]\s*$/i;
  const removed: BlindRemoval[] = [];
  const out: string[] = [];
  text.split('\n').forEach((was, i) => {
    // A parenthesis or bracket that names the method, a round or a model goes; "(direct)" alone too.
    const stripped = was.replace(/\s*[([][^()[\]\n]*[)\]]/g, (p) => (names.test(p) || lone.test(p) ? '' : p));
    const now = stripped === was ? was : stripped.replace(/\s+$/, '');
    const heading = /^\s{0,3}#{1,6}\s/.test(now);
    const bare = now.replace(/^\s{0,3}#{1,6}\s*/, '').replace(/[\s:*_>-]+/g, '');
    if ((names.test(now) && (heading || now.length <= LABEL_MAX)) || (now !== was && bare === '')) {
      removed.push({ line: i + 1, was });
      return;
    }
    if (now !== was) removed.push({ line: i + 1, was, now });
    out.push(now);
  });
  // Blank lines a removed heading left at the top are not kept.
  while (out.length && out[0]!.trim() === '') out.shift();
  return { text: out.join('\n'), removed };
}
