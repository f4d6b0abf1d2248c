/**
 * Must run before any component module: if Lit ever has to fall back from adoptedStyleSheets to <style> elements,
 * it stamps them with `window.litNonce`, which the page's CSP allows.
 */
// The first module of the bundle to run: where the panel's own timing marks begin (see app.ts `data-marks`).
performance.mark('tf:script');
const meta = document.querySelector('meta[name="teamfusion-nonce"]');
const nonce = meta?.getAttribute('content');
if (nonce) (window as Window & { litNonce?: string }).litNonce = nonce;
export {};
