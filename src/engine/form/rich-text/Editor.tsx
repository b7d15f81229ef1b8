/**
 * The rich-text editor of `richText` fields: Tiptap (ProseMirror) with its starter kit — headings,
 * bold / italic / underline / strike, lists, quotes, links, undo — and an antd toolbar. The value is
 * HTML; an empty editor is ''. The server cleans the HTML again on save (resources/rich-text.ts).
 * Loaded lazily (RichTextInput), so only forms with such a field download it.
 */
import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Input, Popover, Space, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import '../../render/rich-text.css';
import './rich-text.css';

export interface RichTextEditorProps {
  value?: string | null;
  onChange?: (html: string) => void;
  disabled?: boolean;
  /** Limit of the stored HTML's length (the field's maxLength), shown as a counter. */
  maxLength?: number;
  id?: string;
  'aria-label'?: string;
}

const htmlOf = (editor: Editor) => (editor.isEmpty ? '' : editor.getHTML());

/** Own values remembered as echoes: far more keystrokes than a render can lag behind. */
const ECHOES_KEPT = 200;

export default function RichTextEditor({ value, onChange, disabled, maxLength, id, 'aria-label': ariaLabel }: RichTextEditorProps) {
  // The latest value and handler: the editor's update handler is bound once.
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };
  /**
   * What this editor handed the form since the form last held what the editor shows. A value among
   * them is the form echoing the user's own typing back a few keystrokes late (the render lags on a
   * busy machine): setting it would throw away what was typed since and move the caret, so that
   * later characters landed before earlier ones (seen once in a CI run). Cleared whenever the two
   * agree, so a reset to an earlier value is still applied.
   */
  const echoes = useRef(new Set<string>());
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        codeBlock: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https', protocols: ['http', 'https', 'mailto'] },
      }),
    ],
    content: value ?? '',
    editable: !disabled,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        class: 'engine-rich-text engine-rich-text-editor__content',
        role: 'textbox',
        'aria-multiline': 'true',
        ...(ariaLabel ? { 'aria-label': ariaLabel } : {}),
        ...(id ? { id } : {}),
      },
    },
    // Only a changed document is input (an update without one, e.g. from setEditable, must not make the form dirty).
    onUpdate: ({ editor: e }) => {
      const html = htmlOf(e);
      if (html === (latest.current.value ?? '')) return;
      if (echoes.current.size >= ECHOES_KEPT) echoes.current.delete(echoes.current.values().next().value!);
      echoes.current.add(html);
      latest.current.onChange?.(html);
    },
  });

  // A value set from outside (form reset, a loaded record) replaces the content; the editor's own, echoed back, does not.
  useEffect(() => {
    const html = value ?? '';
    if (!editor) return;
    if (html === htmlOf(editor)) {
      echoes.current.clear();
      return;
    }
    if (echoes.current.has(html)) return;
    echoes.current.clear();
    editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, value]);
  useEffect(() => {
    if (editor && editor.isEditable === !!disabled) editor.setEditable(!disabled, false);
  }, [editor, disabled]);

  const length = (value ?? '').length;
  return (
    <div className={`engine-rich-text-editor${disabled ? ' engine-rich-text-editor--disabled' : ''}`}>
      {!disabled && <Toolbar editor={editor} />}
      <EditorContent editor={editor} />
      {maxLength !== undefined && (
        <Typography.Text type={length > maxLength ? 'danger' : 'secondary'} className="engine-rich-text-editor__count">
          {length} / {maxLength}
        </Typography.Text>
      )}
    </div>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  return (
    <div className="engine-rich-text-editor__toolbar" role="toolbar" aria-label="格式">
      <Space size={2} wrap>
        <Tool title="标题" active={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
          H2
        </Tool>
        <Tool title="小标题" active={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>
          H3
        </Tool>
        <Divider type="vertical" />
        <Tool title="加粗" active={state.bold} onClick={() => chain().toggleBold().run()} icon={<BoldOutlined />} />
        <Tool title="斜体" active={state.italic} onClick={() => chain().toggleItalic().run()} icon={<ItalicOutlined />} />
        <Tool title="下划线" active={state.underline} onClick={() => chain().toggleUnderline().run()} icon={<UnderlineOutlined />} />
        <Tool title="删除线" active={state.strike} onClick={() => chain().toggleStrike().run()} icon={<StrikethroughOutlined />} />
        <Divider type="vertical" />
        <Tool title="无序列表" active={state.bullet} onClick={() => chain().toggleBulletList().run()} icon={<UnorderedListOutlined />} />
        <Tool title="有序列表" active={state.ordered} onClick={() => chain().toggleOrderedList().run()} icon={<OrderedListOutlined />} />
        <Tool title="引用" active={state.quote} onClick={() => chain().toggleBlockquote().run()}>
          “”
        </Tool>
        <LinkTool editor={editor} active={state.link} />
        <Divider type="vertical" />
        <Tool title="撤销" disabled={!state.undo} onClick={() => chain().undo().run()} icon={<UndoOutlined />} />
        <Tool title="重做" disabled={!state.redo} onClick={() => chain().redo().run()} icon={<RedoOutlined />} />
      </Space>
    </div>
  );
}

function Tool({
  title,
  active,
  disabled,
  onClick,
  icon,
  children,
}: {
  title: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  icon?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Tooltip title={title}>
      <Button
        size="small"
        type={active ? 'primary' : 'text'}
        ghost={false}
        aria-label={title}
        aria-pressed={active}
        disabled={disabled}
        onClick={onClick}
        icon={icon}
      >
        {children}
      </Button>
    </Tooltip>
  );
}

/** A link on the selection: its address in a popover; an empty address removes the link. */
function LinkTool({ editor, active }: { editor: Editor; active: boolean }) {
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');
  const apply = () => {
    const url = href.trim();
    const chain = editor.chain().focus().extendMarkRange('link');
    if (url === '') chain.unsetLink().run();
    else chain.setLink({ href: /^(https?:|mailto:)/i.test(url) ? url : `https://${url}` }).run();
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        if (next) setHref((editor.getAttributes('link').href as string | undefined) ?? '');
        setOpen(next);
      }}
      trigger="click"
      content={
        <Space.Compact style={{ width: 320 }}>
          <Input autoFocus aria-label="链接地址" placeholder="https://" value={href} onChange={(e) => setHref(e.target.value)} onPressEnter={apply} />
          <Button type="primary" onClick={apply}>
            确定
          </Button>
        </Space.Compact>
      }
    >
      <span>
        <Tool title="链接" active={active} onClick={() => undefined} icon={<LinkOutlined />} />
      </span>
    </Popover>
  );
}
