/**
 * The form widget of `richText` fields: the Tiptap editor (rich-text/Editor.tsx, loaded on first
 * use) in edit mode, the cleaned HTML (render/RichTextView) in view mode.
 */
import { connect, mapReadPretty } from '@formily/react';
import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import { RichTextView } from '../render/RichTextView';
import type { RichTextEditorProps } from './rich-text/Editor';

const Editor = lazy(() => import('./rich-text/Editor'));

function LazyEditor(props: RichTextEditorProps) {
  return (
    <Suspense fallback={<Skeleton.Input active block style={{ height: 220 }} />}>
      <Editor {...props} />
    </Suspense>
  );
}

export const RichTextInput = connect(
  LazyEditor,
  mapReadPretty(({ value }: { value?: unknown }) => <RichTextView value={value} />),
);
