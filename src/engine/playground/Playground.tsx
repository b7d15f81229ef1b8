/**
 * The schema playground: a screen JSON pasted on the left is linted against the repository's
 * schemas (the same lint as `npm run lint:schemas`, run in the browser) and rendered live on the
 * right over the repository's resources and dictionaries. Nothing is saved.
 */
import { Alert, Card, Col, Empty, Input, List, Row, Space, Tag, Typography } from 'antd';
import { Component, useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import { EngineProvider, type EngineSettings } from '../context';
import { bundledRegistry } from '../registry/bundled';
import type { SchemaRegistry } from '../registry/registry';
import SchemaScreen from '../SchemaScreen';
import { formatDiagnostic, lintFiles, type Diagnostic, type MetaSchemas, type Screen, type SchemaText } from '../../schema';

export interface PlaygroundProps extends Omit<EngineSettings, 'registry'> {
  /** The repository's schema files (path relative to schemas/, raw text). */
  files: readonly SchemaText[];
  metaSchemas: MetaSchemas;
  ruleNames: Iterable<string>;
  /** The screen shown first. */
  initialScreen: string;
}

/** Parses the pasted text and lints it in place of (or beside) the repository's file. */
function check(text: string, props: PlaygroundProps): { screen?: Screen; errors: Diagnostic[]; parseError?: string } {
  let parsed: Screen | undefined;
  try {
    parsed = JSON.parse(text) as Screen;
  } catch (e) {
    return { errors: [], parseError: (e as Error).message };
  }
  const path = `screens/${typeof parsed?.id === 'string' ? parsed.id : 'playground'}.json`;
  const texts = [...props.files.filter((f) => f.path !== path), { path, text }];
  const { errors } = lintFiles(texts, { metaSchemas: props.metaSchemas, ruleNames: props.ruleNames });
  return { screen: parsed, errors: errors.filter((d) => d.file === path) };
}

/** The pasted screen first, everything else from the build. */
function overlay(screen: Screen): SchemaRegistry {
  return { ...bundledRegistry, screen: (id) => (id === screen.id ? Promise.resolve(screen) : bundledRegistry.screen(id)) };
}

/** A short content hash: a new cache scope for every edit, so reads follow the pasted screen. */
function hash(text: string): string {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(31, h) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

class RenderBoundary extends Component<{ children: ReactNode; resetKey: string }, { error?: Error; key?: string }> {
  state: { error?: Error; key?: string } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  static getDerivedStateFromProps(props: { resetKey: string }, state: { key?: string }) {
    return props.resetKey === state.key ? null : { error: undefined, key: props.resetKey };
  }
  render() {
    return this.state.error ? <Alert type="error" showIcon message="渲染失败" description={this.state.error.message} /> : this.props.children;
  }
}

export default function Playground(props: PlaygroundProps) {
  const initial = props.files.find((f) => f.path === `screens/${props.initialScreen}.json`)?.text ?? '{}';
  const [text, setText] = useState(initial);
  const deferred = useDeferredValue(text);
  const result = useMemo(() => check(deferred, props), [deferred, props]);
  const registry = useMemo(() => (result.screen && result.errors.length === 0 ? overlay(result.screen) : undefined), [result]);
  const { files: _files, metaSchemas: _meta, ruleNames: _rules, initialScreen: _initial, ...settings } = props;

  return (
    <Row gutter={16} className="schema-playground">
      <Col span={10}>
        <Card title="屏幕定义（JSON）" size="small">
          <Input.TextArea
            aria-label="屏幕定义"
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoSize={{ minRows: 24, maxRows: 40 }}
            spellCheck={false}
            style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', fontSize: 12 }}
          />
        </Card>
        <Card
          title={
            <Space>
              检查结果{' '}
              <Tag color={result.errors.length || result.parseError ? 'error' : 'success'}>
                {result.parseError ? 'JSON 错误' : `${result.errors.length} 个问题`}
              </Tag>
            </Space>
          }
          size="small"
          style={{ marginTop: 16 }}
        >
          {result.parseError ? (
            <Typography.Text type="danger">{result.parseError}</Typography.Text>
          ) : (
            <List
              size="small"
              className="schema-playground__errors"
              locale={{ emptyText: '没有发现问题' }}
              dataSource={result.errors}
              renderItem={(d) => (
                <List.Item>
                  <Typography.Text code>{formatDiagnostic(d)}</Typography.Text>
                </List.Item>
              )}
            />
          )}
        </Card>
      </Col>
      <Col span={14}>
        {registry && result.screen ? (
          <EngineProvider {...settings} registry={registry} cacheScope={`${settings.cacheScope ?? ''}:playground:${hash(deferred)}`}>
            <RenderBoundary resetKey={deferred}>
              <SchemaScreen screenId={result.screen.id} />
            </RenderBoundary>
          </EngineProvider>
        ) : (
          <Card>
            <Empty description="修正左侧的问题后显示预览" />
          </Card>
        )}
      </Col>
    </Row>
  );
}
