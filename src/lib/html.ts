/**
 * HTML built safely: a tagged template whose interpolated text is escaped, and the `Html` fragments it
 * makes, which pass through unescaped. Shared by the web interfaces and the hosted pages.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value made safe for HTML. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

/** A fragment of already-safe HTML; only `html` and the helpers built on it make one. */
export type Html = { readonly safe: string };

/** Tagged template: interpolated strings are escaped, Html fragments and arrays of them kept. */
export function html(strings: TemplateStringsArray, ...values: (string | number | Html | Html[])[]): Html {
  let out = strings[0]!;
  values.forEach((value, index) => {
    if (Array.isArray(value)) out += value.map((item) => item.safe).join('');
    else if (typeof value === 'object') out += value.safe;
    else out += escapeHtml(String(value));
    out += strings[index + 1]!;
  });
  return { safe: out };
}
