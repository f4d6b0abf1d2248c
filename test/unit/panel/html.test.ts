import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, escapeHtml, jsonForScript, makeNonce, panelHtml } from '../../../src/extension/panel/html';

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

  it('carries the first state as a JSON data block that no text in it can close, and still runs only the app', () => {
    const state = {
      title: '</script><script>alert(1)</script>',
      brief: '<!-- <script> --> </SCRIPT > \u2028 \u2029 & "quotes"',
      root: '/r',
      nested: { list: [1, 'two', null] },
    };
    const page = panelHtml({
      cspSource: 'https://src',
      scriptUri: 'https://x/panel.js',
      styleUri: 'https://x/panel.css',
      nonce: 'n1',
      title: 't',
      state,
    });
    const tags = page.match(/<script[^>]*>/g) ?? [];
    assert.equal(tags.length, 2);
    const runnable = tags.filter((t) => !/type="application\/json"/.test(t));
    assert.equal(runnable.length, 1, 'one script runs: the app');
    assert.match(runnable[0]!, /src="https:\/\/x\/panel.js"/);
    const block = /<script type="application\/json" id="tf-state" nonce="n1">([\s\S]*?)<\/script>/.exec(page);
    assert.ok(block, 'the data block is there');
    assert.ok(!block[1]!.includes('<'), 'no < inside the block');
    assert.deepEqual(JSON.parse(block[1]!), state);
    assert.equal(page.match(/<\/script>/gi)?.length, 2, 'no text closes a script early');
    assert.equal(jsonForScript('\u2028<'), '"\\u2028\\u003c"');
    assert.ok(!html.includes('tf-state'), 'no block without a state');
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
