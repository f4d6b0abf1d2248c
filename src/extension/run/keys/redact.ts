/**
 * Defence in depth for the Output channel: whatever a line holds, a known secret never reaches the log.
 */

const BEARER = /(authorization\s*[:=]\s*bearer\s+)[^\s"',]+/gi;
const API_KEY_PARAM = /((?:api[_-]?key)\s*[:=]\s*["']?)[^\s"',&]+/gi;

/** Replaces every occurrence of each secret (and bearer tokens / api_key=… pairs) with "***". */
export function redactSecrets(line: string, secrets: readonly (string | undefined)[]): string {
  let out = line;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('***');
  }
  return out.replace(BEARER, '$1***').replace(API_KEY_PARAM, '$1***');
}
