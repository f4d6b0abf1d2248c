/**
 * The README is short and points to one page per subject under docs/; every relative link of the README and the pages leads
 * to a file of the repository, and a link to a heading (`page.md#heading`) to a heading that page has.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../../../..');
const read = (rel: string): string => readFileSync(path.join(REPO, rel), 'utf8');
const PAGES = readdirSync(path.join(REPO, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort();

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings (outside fenced blocks). */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence && /^#{1,6} (.+)$/.exec(line);
    if (m) out.add(anchorOf(m[1]!));
  }
  return out;
}

/** Relative Markdown links `[text](target)` of a text, outside fenced blocks. */
function links(markdown: string): string[] {
  const text = markdown.split(/^```[\s\S]*?^```/m).join('');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('README and docs/: short, one page a subject, every link leads somewhere', () => {
  it('the README has at most 250 lines and links every page of docs/', () => {
    const readme = read('README.md');
    assert.ok(readme.split('\n').length <= 250, `README.md has ${readme.split('\n').length} lines`);
    const linked = new Set(links(readme).map((l) => l.split('#')[0]));
    const wanted = [
      'review-folder.md',
      'run.md',
      'evaluation.md',
      'brief-review.md',
      'vscode.md',
      'sync.md',
      'security.md',
      'cli.md',
      'development.md',
    ];
    for (const page of wanted) assert.ok(PAGES.includes(page), `docs/${page} is missing`);
    assert.deepEqual(
      PAGES.filter((p) => !linked.has(`docs/${p}`)),
      [],
      'pages of docs/ the README does not link',
    );
  });

  it('every relative link of the README and of docs/*.md names a file that exists, and a heading that page has', () => {
    const broken: string[] = [];
    for (const from of ['README.md', ...PAGES.map((p) => `docs/${p}`)]) {
      for (const link of links(read(from))) {
        const [file, anchor] = link.split('#');
        const target = file ? path.normalize(path.join(path.dirname(from), file)) : from;
        if (!existsSync(path.join(REPO, target))) broken.push(`${from}: ${link}`);
        else if (anchor && target.endsWith('.md') && !anchors(read(target)).has(anchor)) broken.push(`${from}: ${link} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('anchors are made as GitHub makes them', () => {
    assert.equal(anchorOf('Did it help?'), 'did-it-help');
    assert.equal(anchorOf('An optional judge, and what it is not'), 'an-optional-judge-and-what-it-is-not');
    assert.equal(anchorOf('Team sync: a team on several machines (`--sync`)'), 'team-sync-a-team-on-several-machines---sync');
  });
});
