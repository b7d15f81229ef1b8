/**
 * A document screen: one record laid out as an A4 page — title, number, paragraphs whose {field}
 * placeholders take the record's display text, a table of fields, signature and seal boxes, and the
 * QR code of the record's open verification address (the token the server hands out with the
 * record; the server refuses records outside the document's printable states). 打印 prints the
 * paper alone (@page A4, document.css); 下载PDF renders the same element into a PDF (pdf.ts).
 */
import { DownloadOutlined, PrinterOutlined, RollbackOutlined } from '@ant-design/icons';
import { App, Button, QRCode, Space } from 'antd';
import { Fragment, useRef, useState } from 'react';
import { useDocument } from '../data/hooks';
import type { RecordData } from '../data/provider';
import { codesOf } from '../model/codes';
import { fieldOf, resolveField } from '../model/fields';
import { useScreenLinks } from '../navigation';
import { formatValue } from '../render/values';
import type { DocumentScreen as DocumentScreenSchema, Field, Resource, Dict } from '../../schema/types';
import type { ScreenComponentProps } from '../screen-props';
import { LoadFailed, LoadingBlock } from '../ui';
import './document.css';

/** The open route that verifies a document by its token (schemas/menu.json, public). */
export const VERIFY_ROUTE = '/verify';

/** The absolute verification address of a token, as the QR code holds it. */
export const verifyUrl = (token: string, origin = window.location.origin): string => `${origin}${VERIFY_ROUTE}/${encodeURIComponent(token)}`;

/** A date as on official paper: 2026年1月5日. */
function paperDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? `${m[1]}年${Number(m[2])}月${Number(m[3])}日` : value;
}

/** The display text of one field of the record (dictionary labels, dates in Chinese). */
function fieldText(resource: Resource, dicts: ReadonlyMap<string, Dict>, name: string, field: Field, record: RecordData): string {
  const text = formatValue(field, codesOf(resource, name, field, dicts), record[name]);
  if (field.type === 'date') return paperDate(text);
  // An area path reads as one place name on paper (浙江省宁波市鄞州区), not as a breadcrumb.
  return field.type === 'area' ? text.split(' / ').join('') : text;
}

/** `{field}` placeholders replaced by the record's text; an unknown name stays as written. */
export function fillTemplate(template: string, resource: Resource, dicts: ReadonlyMap<string, Dict>, record: RecordData): string {
  return template.replace(/\{([A-Za-z_$][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    try {
      return fieldText(resource, dicts, name, fieldOf(resource, name), record);
    } catch {
      return whole;
    }
  });
}

function Paper({
  screen,
  resource,
  dicts,
  record,
  token,
  paperRef,
}: {
  screen: DocumentScreenSchema;
  resource: Resource;
  dicts: ReadonlyMap<string, Dict>;
  record: RecordData;
  token: string;
  paperRef: React.Ref<HTMLDivElement>;
}) {
  const fill = (text: string) => fillTemplate(text, resource, dicts, record);
  const url = verifyUrl(token);
  const columns = screen.columns ?? 2;
  const cells = (screen.fields ?? []).map((ref) => {
    const { name, field, label } = resolveField(resource, ref);
    return { name, label, text: fieldText(resource, dicts, name, field, record) };
  });
  const rows: (typeof cells)[] = [];
  for (let i = 0; i < cells.length; i += columns) rows.push(cells.slice(i, i + columns));
  const number = screen.number ? resolveField(resource, screen.number) : undefined;

  return (
    <div className="engine-document__paper" ref={paperRef} data-testid="document-paper">
      <h1 className="engine-document__title">{screen.title}</h1>
      {number && (
        <div className="engine-document__number">
          {number.label}：{fieldText(resource, dicts, number.name, number.field, record)}
        </div>
      )}
      <div className="engine-document__body">
        {(screen.body ?? []).map((text, i) => (
          <p key={i} className={/[：:]$/.test(text.trim()) ? 'engine-document__salutation' : undefined}>
            {fill(text)}
          </p>
        ))}
      </div>
      {rows.length > 0 && (
        <table className="engine-document__table">
          <tbody>
            {rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, c) => (
                  <Fragment key={cell.name}>
                    <th>{cell.label}</th>
                    <td colSpan={c === row.length - 1 ? 1 + (columns - row.length) * 2 : 1}>{cell.text}</td>
                  </Fragment>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {screen.signatures?.length ? (
        <div className="engine-document__signatures">
          {screen.signatures.map((sig, i) => (
            <div key={i} className="engine-document__signature">
              <div>{sig.label}</div>
              <div className="engine-document__signature-text">{sig.text ? fill(sig.text) : ''}</div>
              <div>{(sig.date && fill(sig.date).trim()) || '年　　月　　日'}</div>
            </div>
          ))}
        </div>
      ) : null}
      <div className="engine-document__footer">
        <div className="engine-document__qr" data-testid="document-qr" data-url={url}>
          <QRCode value={url} size={104} bordered={false} errorLevel="M" color="#000" bgColor="#fff" />
        </div>
        <div>
          <div>{screen.note ? fill(screen.note) : '扫描左侧二维码或访问以下地址，可核验本文书的真实性与当前状态：'}</div>
          <div className="engine-document__url">{url}</div>
        </div>
      </div>
    </div>
  );
}

export default function DocumentScreen({ bundle, id, onClose }: ScreenComponentProps) {
  const screen = bundle.screen as DocumentScreenSchema;
  const { resource, dicts } = bundle;
  const { data, error, mutate } = useDocument(resource.name, id);
  const links = useScreenLinks();
  const { message } = App.useApp();
  const paper = useRef<HTMLDivElement>(null);
  const [exporting, setExporting] = useState(false);

  if (!id) return <LoadFailed error={new Error('未指定要打印的记录')} />;
  if (error) return <LoadFailed error={error} onRetry={() => void mutate()} />;
  if (!data) return <LoadingBlock rows={12} />;

  const numberText = screen.number ? fillTemplate(`{${screen.number}}`, resource, dicts, data.record) : '';
  const fileName = `${screen.title}${numberText ? `-${numberText}` : ''}.pdf`;
  const download = async () => {
    if (!paper.current) return;
    setExporting(true);
    try {
      await downloadPdf(paper.current, fileName);
    } catch {
      void message.error('生成PDF失败，请使用打印功能另存为PDF');
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="engine-document engine-screen">
      <div className="engine-document__toolbar engine-no-print">
        <Button icon={<RollbackOutlined />} onClick={() => (onClose ? onClose() : links.back())}>
          返回
        </Button>
        <Space>
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void download()}>
            下载PDF
          </Button>
          <Button type="primary" icon={<PrinterOutlined />} onClick={() => window.print()}>
            打印
          </Button>
        </Space>
      </div>
      <Paper screen={screen} resource={resource} dicts={dicts} record={data.record} token={data.token} paperRef={paper} />
    </div>
  );
}

/** The PDF libraries load on first download only. */
const downloadPdf = async (element: HTMLElement, fileName: string) => (await import('./pdf')).downloadPdf(element, fileName);
