/**
 * Stands in for `punycode.js` in the webview bundle (esbuild.mjs aliases it): markdown-it asks it for a link's host name
 * in ASCII (`toASCII`) and, for a link's shown text, back in Unicode (`toUnicode`). A host name that is ASCII already
 * stays as it is, as with punycode.js; any other goes through the browser's own URL parser (the IDNA rules a browser
 * applies when the link is opened). The shown text keeps the host name as the brief wrote it: an `xn--` name is shown as
 * written, which also shows a look-alike name for what it is. A name the URL parser refuses throws, and markdown-it then
 * keeps the name unchanged.
 */
const ASCII = /^[\x00-\x7f]*$/;

function toASCII(host: string): string {
  return ASCII.test(host) ? host : new URL(`http://${host}`).hostname;
}

function toUnicode(host: string): string {
  return host;
}

export default { toASCII, toUnicode };
