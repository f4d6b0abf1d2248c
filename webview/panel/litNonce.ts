/**
 * Must run before any component module: if Lit ever has to fall back from adoptedStyleSheets to <style> elements,
 * it stamps them with `window.litNonce`, which the page's CSP allows.
 */
const meta = document.querySelector('meta[name="teamfusion-nonce"]');
const nonce = meta?.getAttribute('content');
if (nonce) (window as Window & { litNonce?: string }).litNonce = nonce;
export {};
