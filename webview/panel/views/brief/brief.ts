import { h, section, muted } from '../../dom';
import { renderMarkdown } from '../../text/markdown';
import type { ViewContext } from '../../context';

/** The client brief, rendered from Markdown (markdown.ts: allowed elements only, text as text). */
export function briefView(ctx: ViewContext): HTMLElement {
  const brief = ctx.state.review?.brief ?? '';
  if (!brief.trim()) return section('tf-brief', 'Brief', muted('brief.md is empty.'));
  const body = h('div', { class: 'tf-markdown' });
  body.append(renderMarkdown(brief, ctx.state.base));
  return section('tf-brief', 'Brief', h('vscode-collapsible', { title: 'brief.md', open: true, class: 'tf-brief-box' }, body));
}
