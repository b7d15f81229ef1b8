/**
 * The ECharts options of the engine's charts (src/engine/stats/chart-options.ts): bars keep the
 * data's order with count and share labels, a donut names each slice with its count and shows the
 * total, lines share their months; and the rich-text cleaning of the server (resources/rich-text.ts)
 * with the plain text a list shows of it (render/RichTextView.tsx).
 */
import { describe, expect, it } from 'vitest';
import { barHeight, barOption, describeTrend, donutOption, lineOption } from '../../src/engine/stats/chart-options';
import type { ChartDatum } from '../../src/engine/stats/stats';
import { richTextPlain } from '../../src/engine/render/RichTextView';
import { sanitizeRichText } from '../../src/server/resources/rich-text';
import { RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS } from '../../src/shared/rich-text';
import { viewOf } from '../support/chart-option';

const data: ChartDatum[] = [
  { key: 'a', label: '甲', count: 3, share: 0.6 },
  { key: 'b', label: '乙', count: 2, share: 0.4 },
];
const colors = { primary: '#1677ff', text: '#000', textSecondary: '#666' };

describe('chart options', () => {
  it('bars: one category per value, largest first from the top, labelled with count and share', () => {
    const option = viewOf<{ value: number }>(barOption(data, colors));
    expect(option.yAxis.data).toEqual(['甲', '乙']);
    expect(option.yAxis.inverse).toBe(true);
    expect(option.series[0].data.map((d) => d.value)).toEqual([3, 2]);
    expect(option.series[0].label.formatter({ value: 3, dataIndex: 0 })).toBe('3（60.0%）');
    expect(barHeight(2)).toBe(160);
    expect(barHeight(20)).toBe(624);
  });

  it('a donut: slices in the given colours, legend entries with their counts, the total in the hole', () => {
    const option = viewOf(donutOption(data, 5, { ...colors, slices: ['#52c41a', '#fa8c16'] }));
    expect(option.color).toEqual(['#52c41a', '#fa8c16']);
    expect(option.series[0].data).toEqual([
      { name: '甲', value: 3 },
      { name: '乙', value: 2 },
    ]);
    expect(option.legend.formatter('乙')).toBe('乙  2');
    expect(option.title.text).toBe('5');
  });

  it('lines: the months of the first series on the axis, one series per line, a sentence for screen readers', () => {
    const lines = [
      {
        label: '应检',
        points: [
          { month: '2026-01', count: 3 },
          { month: '2026-02', count: 1 },
        ],
      },
      {
        label: '已检',
        points: [
          { month: '2026-01', count: 2 },
          { month: '2026-02', count: 0 },
        ],
      },
    ];
    const option = viewOf<number>(lineOption(lines, colors));
    expect(option.xAxis.data).toEqual(['2026-01', '2026-02']);
    expect(option.series.map((s) => [s.name, s.data])).toEqual([
      ['应检', [3, 1]],
      ['已检', [2, 0]],
    ]);
    expect(describeTrend('趋势', lines)).toBe('趋势：应检 2026-01 3，2026-02 1；已检 2026-01 2，2026-02 0');
  });
});

describe('rich text', () => {
  it('keeps formatting and drops scripts, event attributes, styles and unsafe links', () => {
    expect(sanitizeRichText('<p style="x" onclick="y">正文<em>斜体</em><script>alert(1)</script></p><img src=x onerror=alert(1)>')).toBe(
      '<p>正文<em>斜体</em></p>',
    );
    expect(sanitizeRichText('<a href="javascript:alert(1)">x</a>')).not.toContain('javascript');
    expect(sanitizeRichText('<a href="https://example.org">x</a>')).toBe('<a href="https://example.org" target="_blank" rel="noopener noreferrer">x</a>');
  });

  it('keeps every tag and attribute of the list the browser keeps too', () => {
    for (const tag of RICH_TEXT_TAGS) {
      const names = RICH_TEXT_ATTRIBUTES[tag] ?? [];
      const attributes = names.map((name) => ` ${name}="${name === 'href' ? 'https://example.org' : '2'}"`).join('');
      expect(sanitizeRichText(`<${tag}${attributes} title="x">x</${tag}>`), tag).toMatch(
        new RegExp(`^<${tag}${names.map((n) => `[^>]* ${n}=`).join('')}[^>]*>`),
      );
      expect(sanitizeRichText(`<${tag} title="x">x</${tag}>`), tag).not.toContain('title');
    }
  });

  it('reads as plain text in lists, blocks separated', () => {
    expect(richTextPlain('<h2>标题</h2><p>第一段&nbsp;<strong>重点</strong></p><ul><li>一</li><li>二</li></ul>')).toBe('标题 第一段 重点 一 二');
    expect(richTextPlain('<p>a &lt; b &amp; c</p>')).toBe('a < b & c');
    expect(richTextPlain('')).toBe('');
  });
});
