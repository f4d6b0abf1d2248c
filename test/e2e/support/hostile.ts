/**
 * Text that would run code or inject markup if the panel ever treated it as HTML. Each piece, if it ran, sets
 * `window.__pwned` or the document title to "PWNED" (the sentinel the tests check in every frame).
 */
export const HOSTILE_SNIPPETS = [
  '<script>window.__pwned = "script"; document.title = "PWNED"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<svg onload="window.__pwned = \'svg\'"></svg>',
  '</textarea><script>window.__pwned = "textarea"</script>',
  '<iframe srcdoc="<script>parent.__pwned = 1</script>"></iframe>',
  '"><b onmouseover="window.__pwned = 1">hover</b>',
];

/** A brief with hostile HTML, Markdown links and images. */
export const HOSTILE_BRIEF = [
  '# Hostile brief <script>window.__pwned = "h1"</script>',
  '',
  ...HOSTILE_SNIPPETS.map((s) => `- ${s}`),
  '',
  '[click me](javascript:window.__pwned=1) and [data link](data:text/html,<script>parent.__pwned=1</script>)',
  '',
  '![x](javascript:window.__pwned=1) ![y](https://example.invalid/track.png)',
  '',
  '<div style="position:fixed;inset:0">HTML block inside Markdown</div>',
  '',
  '```html',
  '<script>window.__pwned = "code"</script>',
  '```',
].join('\n');

export const HOSTILE_JUSTIFICATION = `Looks fine ${HOSTILE_SNIPPETS[1]} ${HOSTILE_SNIPPETS[3]}`;

/** What a hostile model says in the discussion. */
export const HOSTILE_MODEL_TEXT = `Image 1 is best. ${HOSTILE_SNIPPETS.join(' ')} [x](javascript:window.__pwned=1)`;
