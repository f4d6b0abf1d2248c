/**
 * criteria.md names the files each quote comes from (issue 39, item 7): `comments/ana.md`, `brief.md` or `rankings/d1.yaml`
 * written as plain text are addresses to a linkifier (.md is a country's domain), so a viewer that links bare words with a
 * dot would make them live. They are written as code spans: no viewer links them, and the names still read as they are.
 */
import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { criteriaMarkdown, type CriteriaFile } from '../../../src/core/criteria';
import { codeSpan, inertMarkdown } from '../../../src/core/files/markdown';

/** The most eager reader: markdown-it's linkify with fuzzy links on (its default), which links `brief.md`. */
const eager = new MarkdownIt({ linkify: true });

type Token = ReturnType<MarkdownIt['parse']>[number];
function links(markdown: string): string[] {
  const out: string[] = [];
  const walk = (tokens: Token[]): void => {
    for (const t of tokens) {
      if (t.type === 'link_open') out.push(String(t.attrGet('href')));
      if (t.children) walk(t.children);
    }
  };
  walk(eager.parse(markdown, {}));
  return out;
}

describe('criteria.md: the files quoted are named, never linked', () => {
  it("brief.md, comments/ana.md and an option standing's file are code spans no linkifier turns into links", () => {
    assert.deepEqual(links('a quote (brief.md) and (comments/ana.md)'), ['http://brief.md'], 'the reader links a plain file name');
    const file: CriteriaFile = {
      at: '2026-12-06T18:00:00.000Z',
      model: 'gpt-4o',
      task: 'brief',
      sources: {},
      criteria: [
        {
          name: 'Tone',
          description: 'A calm tone.',
          controversy: 0.5,
          stances: {
            ana: { stance: 'values', quote: 'keep the tone calm please', file: 'comments/ana.md', verified: true },
            ben: { stance: 'against', quote: 'the brief is far too calm', file: 'brief.md', verified: false, claimed: 'against' },
          },
          options: { '1': { standing: 'strong', quote: 'calm and premium', file: 'rankings/d1.md', verified: true } },
        },
      ],
      requests: 1,
      sha256: 'x',
    };
    const md = inertMarkdown(criteriaMarkdown(file, { ana: 'Ana', ben: 'Ben' }), 'criteria.md');
    assert.deepEqual(links(md), [], md);
    assert.match(md, /\(`comments\/ana\.md`\)/);
    assert.match(md, /\(`brief\.md`\) — not counted/);
    assert.match(md, /\(`rankings\/d1\.md`\)/);
  });

  it('a file name with backticks or a line break stays one code span', () => {
    assert.equal(codeSpan('a`b.md'), '``a`b.md``');
    assert.equal(codeSpan('`x.md'), '`` `x.md ``');
    assert.equal(codeSpan('one\ntwo.md'), '`one two.md`');
    assert.deepEqual(links(codeSpan('``evil.md``')), []);
  });
});
