/**
 * Stands in for the `uc.micro` package in the webview bundle (esbuild.mjs aliases it): markdown-it asks whether a
 * character is Unicode punctuation or a symbol (where emphasis may open and close). The browser's regular expressions
 * know the Unicode categories themselves (`\p{…}`), so the panel need not ship uc.micro's 5 KB of generated ranges. The
 * other classes uc.micro exports are given the same way (markdown-it hands them on to its plugins; the panel has none).
 */
export const P = /\p{P}/u;
export const S = /\p{S}/u;
export const Cc = /\p{Cc}/u;
export const Cf = /\p{Cf}/u;
export const Z = /\p{Z}/u;
export const Any = /[\s\S]/u;
