/** Building the page's elements: text always goes in as text, never as HTML. */

type Child = Node | string | false | undefined;

/** An element with attributes (a `false`/`undefined` value leaves one out) and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === true) node.setAttribute(name, '');
    else if (typeof value === 'string') node.setAttribute(name, value);
  }
  for (const child of children) if (child !== false && child !== undefined) node.append(child);
  return node;
}

/**
 * The text of an API title or name: WordPress renders titles with entities (`Rock &#038; Roll`).
 * Parsed by an inert document (no script runs, nothing loads) and read back as text.
 */
export function plainText(rendered: string): string {
  return new DOMParser().parseFromString(rendered, 'text/html').documentElement.textContent ?? '';
}
