/**
 * The formatting a rich-text value may keep, one list for both cleaners: the server's (sanitize-html,
 * on every save) and the browser's (DOMPurify, before showing). Paragraphs, headings, lists, quotes,
 * emphasis, tables and links; everything else is dropped.
 */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'strike',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'hr',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'span',
] as const;

/** The attributes each tag may keep (every other attribute is dropped). */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'target', 'rel'],
  ol: ['start'],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
};
