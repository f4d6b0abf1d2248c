/**
 * Stands in for linkify-it in the webview bundle (esbuild.mjs aliases it): markdown-it asks it for bare links in the
 * brief. The panel only ever keeps http(s) and mailto links (markdown.ts), so this finds exactly those — `http://…`,
 * `https://…`, `www.…` and e-mail addresses — with trailing punctuation left out, in a fraction of linkify-it's size.
 */
interface LinkMatch {
  schema: string;
  index: number;
  lastIndex: number;
  raw: string;
  text: string;
  url: string;
}

const LINK = /(?:https?:\/\/|www\.)[^\s<>"'`]+|(?:mailto:)?[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gi;
const TRAILING = /[.,;:!?'")\]}*_~]+$/;

export default class LinkifyIt {
  pretest(text: string): boolean {
    return /https?:\/\/|www\.|@/i.test(text);
  }

  test(text: string): boolean {
    return this.match(text) !== null;
  }

  match(text: string): LinkMatch[] | null {
    const out: LinkMatch[] = [];
    for (const m of text.matchAll(LINK)) {
      const raw = m[0].replace(TRAILING, '');
      const index = m.index ?? 0;
      if (!raw || (index > 0 && /[\w.+-]/.test(text[index - 1]!))) continue;
      const lower = raw.toLowerCase();
      const schema = lower.startsWith('http://')
        ? 'http:'
        : lower.startsWith('https://')
          ? 'https:'
          : raw.includes('@') && !lower.startsWith('www.')
            ? 'mailto:'
            : '';
      const url = schema === 'mailto:' && !lower.startsWith('mailto:') ? `mailto:${raw}` : schema ? raw : `http://${raw}`;
      if (schema !== 'mailto:' && raw.length <= (schema ? schema.length + 2 : 4)) continue;
      out.push({ schema, index, lastIndex: index + raw.length, raw, text: raw, url });
    }
    return out.length ? out : null;
  }

  matchAtStart(text: string): LinkMatch | null {
    const first = this.match(text)?.[0];
    return first && first.index === 0 ? first : null;
  }

  set(): this {
    return this;
  }

  tlds(): this {
    return this;
  }

  add(): this {
    return this;
  }
}
