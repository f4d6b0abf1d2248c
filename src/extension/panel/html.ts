/**
 * The review panel's HTML shell: a strict Content-Security-Policy, one nonce'd script (the bundled app), one stylesheet
 * and the first state as a JSON data block. No `vscode` import, so it can be unit tested.
 *
 * About styles and the CSP: the UI components (@vscode-elements/elements, built on Lit) style their shadow roots with
 * constructable stylesheets (`adoptedStyleSheets`), which `style-src` does not govern, and the app sets colours through
 * the CSSOM (`element.style.setProperty`), which is not inline markup either. Where Lit has to fall back to <style>
 * elements it stamps them with `window.litNonce`, which the app sets from this page's nonce before any component loads.
 * So no 'unsafe-inline' is needed.
 */
import { randomBytes } from 'node:crypto';

export interface PanelHtmlInput {
  /** `webview.cspSource`. */
  cspSource: string;
  /** Webview URI of dist/webview/panel.js. */
  scriptUri: string;
  /** Webview URI of media/panel.css. */
  styleUri: string;
  nonce: string;
  /** Shown before the app starts (and if it cannot). */
  title: string;
  /**
   * The first state (a PanelState), given with the page so the app draws it at once instead of asking for it: JSON in
   * a data block (`<script type="application/json">`, never run), every `<` written as \u003c so no `</script>` or
   * `<!--` in a review's text can end the block.
   */
  state?: unknown;
}

/** JSON for an HTML data block: `<` (so `</script>` and `<!--`) and the line separators are written as escapes. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function makeNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

/** Escapes text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function panelHtml(i: PanelHtmlInput): string {
  const csp = escapeHtml(contentSecurityPolicy(i.cspSource, i.nonce));
  const nonce = escapeHtml(i.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="teamfusion-nonce" content="${nonce}">
<link rel="stylesheet" href="${escapeHtml(i.styleUri)}" nonce="${nonce}">
<title>${escapeHtml(i.title)}</title>
</head>
<body>
<main id="app" aria-busy="true"><p class="tf-muted">Loading ${escapeHtml(i.title)}…</p></main>
${i.state === undefined ? '' : `<script type="application/json" id="tf-state" nonce="${nonce}">${jsonForScript(i.state)}</script>\n`}<script nonce="${nonce}" src="${escapeHtml(i.scriptUri)}"></script>
</body>
</html>`;
}
