/**
 * A member's name, role, comment or justification in a prompt is that member's data, never prompt text: quoted as one
 * JSON string, so a line break, a quote or a "SYSTEM:" inside it can neither end the quote, start a line of its own nor
 * pass for the tool's words. The one place prompts quote people (names and roles are also refused at validation when
 * they hold line breaks or control characters: rankingFields.isOneLine).
 */
export function quoted(text: string): string {
  return JSON.stringify(text);
}

/** A member as prompts name them: `"Ana Ruiz"`, or `"Ana Ruiz" (role "Art Director")`. */
export function quotedMember(m: { name: string; role?: string | undefined }): string {
  return m.role ? `${quoted(m.name)} (role ${quoted(m.role)})` : quoted(m.name);
}
