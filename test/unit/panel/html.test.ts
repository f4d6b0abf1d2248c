import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, escapeHtml, makeNonce, panelHtml } from '../../../src/extension/panel/html';

describe('panel HTML', () => {
  const html = panelHtml({
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    scriptUri: 'https://x/dist/webview/panel.js',
    styleUri: 'https://x/media/panel.css',
    nonce: 'abc123',
    title: '<script>alert(1)</script>',
  });

  it('has a strict CSP: nothing inline without the nonce, no eval', () => {
    const csp = contentSecurityPolicy('https://src', 'n0');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-n0'(;|$)/);
    assert.match(csp, /style-src https:\/\/src 'nonce-n0'/);
    assert.match(csp, /img-src https:\/\/src data:/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  });

  it('loads exactly one script, with the nonce', () => {
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0]!, /nonce="abc123"/);
    assert.match(scripts[0]!, /src="https:\/\/x\/dist\/webview\/panel.js"/);
  });

  it('escapes the title', () => {
    assert.ok(!html.includes('<script>alert(1)</script>'));
    assert.ok(html.includes('&#60;script&#62;alert(1)&#60;/script&#62;'));
    assert.equal(escapeHtml(`"'&`), '&#34;&#39;&#38;');
  });

  it('makes fresh, url-safe nonces', () => {
    const a = makeNonce();
    const b = makeNonce();
    assert.notEqual(a, b);
    assert.match(a, /^[A-Za-z0-9]{16,}$/);
  });
});
