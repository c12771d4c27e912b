import { Marked } from 'marked';

/** GitHub-flavoured markdown, synchronous; one instance so no caller's `marked.use` can change it. */
const converter = new Marked({ gfm: true, async: false });

/**
 * The HTML of a markdown body (`/v1/send` with `type: "markdown"`). The message builder calls it
 * on the body after its Liquid is rendered: variables then work in any markdown construct (a
 * link's URL, a heading, list items a `{% for %}` writes), and values are HTML-escaped by Liquid
 * as in an HTML body, which this conversion keeps escaped. Converting first would hand Liquid
 * tags to the markdown parser (`{{ a | b }}` in a table row, `_` in a variable name read as
 * emphasis) and could not repeat markdown blocks. The price: markdown syntax inside a value
 * (`*`, `[text](url)`) is formatted, where an HTML body shows it as typed.
 */
export function markdownToHtml(source: string): string {
  return converter.parse(source, { async: false });
}
