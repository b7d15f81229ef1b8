/**
 * Rich-text values (field type `richText`, src/schema/kinds.ts): HTML from the browser's editor,
 * cleaned on every save with sanitize-html so only formatting survives — paragraphs, headings,
 * lists, quotes, emphasis, tables and http(s)/mailto links. Scripts, styles, event attributes,
 * iframes and javascript: URLs are dropped, so a detail page can show the stored HTML as is.
 */
import sanitizeHtml from 'sanitize-html';
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS } from '../../shared/rich-text';
import type { ResourceModel } from './model';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT_ATTRIBUTES).map(([tag, names]) => [tag, [...names]])),
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  // Links leave the portal in a new tab, without handing it the opener.
  transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
};

/** `html` with every tag and attribute outside the allowed formatting removed. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** Whether cleaned HTML holds no text (an editor's empty `<p></p>`): stored as a missing value. */
const isEmptyHtml = (html: string) => sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim() === '';

/**
 * Cleans the rich-text fields of a request body in place (and of its sub-table rows), before
 * validation: a length limit counts the stored HTML, and an empty editor is a missing value.
 */
export function sanitizeRichTextFields(model: ResourceModel, body: Record<string, unknown>): void {
  for (const f of model.writable) {
    const value = body[f.name];
    if (f.type !== 'richText' || typeof value !== 'string') continue;
    const clean = sanitizeRichText(value);
    body[f.name] = isEmptyHtml(clean) ? '' : clean;
  }
  for (const link of model.children) {
    const rows = body[link.name];
    if (Array.isArray(rows)) for (const row of rows) if (row && typeof row === 'object') sanitizeRichTextFields(link.model, row as Record<string, unknown>);
  }
}
