/**
 * Stands in for the `entities` package in the webview bundle (esbuild.mjs aliases it): markdown-it asks it to decode
 * named character references such as `&copy;`, and the browser already knows all of them, so the panel need not ship
 * a 70 KB table. Only a checked `&name;` (letters and digits) is ever parsed, so no markup can come of it; anything
 * else comes back unchanged, as markdown-it expects for an unknown name.
 */
const NAMED = /^&[a-z][a-z0-9]{1,31};$/i;
const cache = new Map<string, string>();
let parser: DOMParser | undefined;

export function decodeHTML(reference: string): string {
  if (!NAMED.test(reference)) return reference;
  let decoded = cache.get(reference);
  if (decoded === undefined) {
    parser ??= new DOMParser();
    decoded = parser.parseFromString(`<p>${reference}</p>`, 'text/html').body.textContent ?? reference;
    cache.set(reference, decoded);
  }
  return decoded;
}

export const decodeHTMLStrict = decodeHTML;
