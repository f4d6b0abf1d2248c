/** The @vscode-elements components the panel uses (each import registers one custom element). */
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-tab-header/index.js';
import '@vscode-elements/elements/dist/vscode-tab-panel/index.js';
import '@vscode-elements/elements/dist/vscode-tabs/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';

/**
 * Two things the select components (@vscode-elements 2.x) do that force the page to lay itself out while it is being
 * built, once per select (a large review's panel has dozens: the rankings to edit, who you are, the run): each render
 * measures the select (getBoundingClientRect) to place its dropdown, also while the dropdown is closed, and each change
 * of its options reads every option's innerText (which is laid-out text). A closed dropdown is not placed: it renders
 * again when it opens, and is placed then. An option's label is its text, whitespace collapsed, as it is written.
 */
function quieterSelects(): void {
  const select = customElements.get('vscode-single-select')?.prototype as
    { _renderDropdown?: (this: HTMLElement & { open?: boolean }) => unknown } | undefined;
  const renderDropdown = select?._renderDropdown;
  if (select && renderDropdown) {
    const nowhere = new DOMRect(0, 0, 0, 0);
    select._renderDropdown = function (this: HTMLElement & { open?: boolean }) {
      if (this.open) return renderDropdown.call(this);
      this.getBoundingClientRect = () => nowhere;
      try {
        return renderDropdown.call(this);
      } finally {
        delete (this as Partial<HTMLElement>).getBoundingClientRect;
      }
    };
  }
  const option = customElements.get('vscode-option')?.prototype;
  const innerText = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'innerText');
  if (option && innerText?.set) {
    Object.defineProperty(option, 'innerText', {
      configurable: true,
      get(this: HTMLElement) {
        return (this.textContent ?? '').replace(/\s+/g, ' ').trim();
      },
      set: innerText.set,
    });
  }
}
quieterSelects();

// Every component above is defined: what parsing and running their modules cost shows between tf:script and here.
performance.mark('tf:elements');
export {};
