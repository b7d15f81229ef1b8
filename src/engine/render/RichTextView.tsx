/**
 * A `richText` value as it reads: the stored HTML (cleaned by the server on save) cleaned once
 * more in the browser with DOMPurify before it is shown, so a row written any other way cannot
 * run script here either. `richTextPlain` is its text for lists, titles and exports.
 */
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { emptyTextOf } from './empty';
import type { Field } from '../../schema/types';
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS } from '../../shared/rich-text';
import './rich-text.css';

const ALLOWED = {
  ALLOWED_TAGS: [...RICH_TEXT_TAGS],
  // DOMPurify takes one list of attributes for all tags: the union of each tag's.
  ALLOWED_ATTR: [...new Set(Object.values(RICH_TEXT_ATTRIBUTES).flat())],
};

/** `html` reduced to the formatting the server keeps. */
export const cleanHtml = (html: string): string => DOMPurify.sanitize(html, ALLOWED);

const ENTITIES: Record<string, string> = { nbsp: ' ', lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' };
const decodeEntities = (text: string) => text.replace(/&(nbsp|lt|gt|quot|#39|amp);/g, (_, name: string) => ENTITIES[name]);

/** The text of an HTML value, blocks separated by spaces (outside a browser: the common entities decoded). */
export function richTextPlain(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  const spaced = html.replace(/<\/(p|h[1-6]|li|blockquote|tr|pre)>|<br\s*\/?>/gi, ' $&');
  if (typeof DOMParser === 'undefined')
    return decodeEntities(spaced.replace(/<[^>]*>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
  return (new DOMParser().parseFromString(spaced, 'text/html').body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export function RichTextView({ value, field }: { value: unknown; field?: Field }) {
  const html = useMemo(() => (typeof value === 'string' ? cleanHtml(value) : ''), [value]);
  if (html.trim() === '') return <>{field ? emptyTextOf(field) : null}</>;
  return <div className="engine-rich-text" dangerouslySetInnerHTML={{ __html: html }} />;
}
