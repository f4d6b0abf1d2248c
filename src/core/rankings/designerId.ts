/** Designer ids are ranking-file names: how one is made from a display name, and what a valid one looks like. */

/** Letters, digits, `.`, `_`, `-`; starts with a letter or digit; at most 100 characters. */
export const DESIGNER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** "Designer Ünal B." → "designer-unal-b" (at most 60 characters). Empty when nothing usable is left. */
export function designerIdFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

/**
 * The one rule for "same designer": ids equal after Unicode compatibility normalisation (NFKC) and full case folding
 * (upper then lower case, so "ß" and "SS" fold alike, as do NFC/NFD spellings of "é"). `Ana`, `ana`, `ANA`, `Straße`,
 * `STRASSE` and `e\u0301` / `é` pairs each name one designer.
 */
export function designerKey(id: string): string {
  return id.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

/** True when two designer ids name the same designer (see designerKey). */
export function sameDesigner(a: string, b: string): boolean {
  return designerKey(a) === designerKey(b);
}

/**
 * The most members a review holds: ranking files in rankings/, comment files in comments/ (each counted before any is
 * read). A discussion sends every member's turns, so the cap bounds the work of a run as MAX_OPTIONS bounds the images.
 */
export const MAX_MEMBERS = 50;

/** The one sentence for a folder of more member files than MAX_MEMBERS (none of them was read). */
export function tooManyMembersMessage(folder: 'rankings' | 'comments', count: number): string {
  return `${folder}/ has ${count} ${folder === 'rankings' ? 'ranking' : 'comment'} files; a review has at most ${MAX_MEMBERS} members. Move some out (no file was read).`;
}

/**
 * One person, one file (issue 39): the files of a member folder that share a designer id (by designerKey) with another
 * file there, each → the others. Such files are refused all; none of them counts for anyone. Linear in the files.
 */
export function filesForOneId(rels: readonly string[], idOf: (rel: string) => string): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const rel of rels) {
    const key = designerKey(idOf(rel));
    const list = byKey.get(key);
    if (list) list.push(rel);
    else byKey.set(key, [rel]);
  }
  const out = new Map<string, string[]>();
  for (const list of byKey.values())
    if (list.length > 1)
      for (const rel of list)
        out.set(
          rel,
          list.filter((r) => r !== rel),
        );
  return out;
}

/** The one sentence of files refused because another file is for the same member. */
export function oneIdTwiceMessage(rel: string, others: readonly string[], id: string): string {
  return `${rel} and ${others.join(' and ')} are both for the designer id "${id}", so neither is counted; keep one file per member (merge or rename one of them).`;
}
