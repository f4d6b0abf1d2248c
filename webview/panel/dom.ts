/**
 * Building DOM without HTML strings: text always goes in as text nodes, so nothing the model, a designer or a file
 * says can become markup. (The brief's Markdown too is built element by element, in markdown.ts.)
 */

export type Child = Node | string | number | null | undefined | false;
export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/**
 * `h('div', { class: 'x', onclick: fn }, 'text', h('span', {}, 'more'))`. Attributes `on*` with a function are listeners.
 * An `img` is lazy unless `loading` says otherwise, and gets its `src` only once the first frame is painted (releaseImages).
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs, ...children: Child[]): HTMLElement;
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  // An image's loading mode goes on before its src (set after, the fetch has already begun), lazy unless asked
  // otherwise: VS Code shows a webview only once its page has loaded, so no image may hold the panel back (the app draws
  // at the page's load, and lazy images fill in right after).
  const img = tag === 'img';
  if (img) el.setAttribute('loading', typeof attrs.loading === 'string' ? attrs.loading : 'lazy');
  for (const [k, v] of Object.entries(attrs)) {
    if (img && k === 'loading') continue;
    if (img && k === 'src' && heldImages && typeof v === 'string') {
      heldImages.push([el as HTMLImageElement, v]);
      continue;
    }
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') {
      el.addEventListener(k.replace(/^on/, ''), v);
    } else if (v === true) {
      el.setAttribute(k, '');
    } else {
      el.setAttribute(k, String(v));
    }
  }
  append(el, ...children);
  return el;
}

/** Images made before the panel's first frame was painted, with the address each gets then (undefined: none held any more). */
let heldImages: [HTMLImageElement, string][] | undefined = [];

/**
 * The panel's first frame goes out without images: each image is a request that VS Code's workbench answers on the main
 * thread it shares with the panel's page, and a large review's grid would ask for 50 thumbnails while that frame is laid
 * out. The app calls this once the first frame is painted; every image made before then gets its address now, and every
 * later one at once.
 */
export function releaseImages(): void {
  const held = heldImages ?? [];
  heldImages = undefined;
  for (const [img, src] of held) img.src = src;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces all children of `el`. */
export function replaceChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, ...children);
}

/**
 * Makes `el`'s children exactly `children` (elements), in order, taking out and putting in only what must change: an
 * element that stays where it was (an input someone is typing in, a button being pressed) is never taken out and put
 * back, so it keeps its focus, its selection and a click under way.
 */
export function placeChildren(el: Element, ...children: (Element | null | undefined | false)[]): void {
  const wanted = children.filter((c): c is Element => !!c);
  const keep = new Set<Element>(wanted);
  for (const c of [...el.children]) if (!keep.has(c)) c.remove();
  wanted.forEach((c, i) => {
    const there = el.children[i];
    if (there !== c) el.insertBefore(c, there ?? null);
  });
}

/** A titled section with an id for tests and anchors. */
export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'tf-section', id, 'aria-labelledby': `${id}-title` }, h('h2', { id: `${id}-title` }, title), ...children);
}

/** A paragraph in the muted foreground colour. */
export function muted(text: string): HTMLElement {
  return h('p', { class: 'tf-muted' }, text);
}

/** `${base}/${relative}` with each path segment encoded. */
export function fileUrl(base: string, relative: string): string {
  return `${base.replace(/\/+$/, '')}/${relative.split('/').map(encodeURIComponent).join('/')}`;
}
