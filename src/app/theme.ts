/**
 * The portal's antd theme: the one place its colours are set. Every colour that carries text meets
 * WCAG AA (4.5:1) on white and on its own light tint — antd's defaults do not (#1677ff links and
 * primary buttons 4.1:1, #ff4d4f errors 3.4:1, #faad14 warnings 2.1:1, the gold/orange/green/cyan
 * tags 2.8–3.4:1 on their backgrounds). State colours (overdue red, due-soon orange, status tags)
 * are therefore one step darker than antd's; the accessibility e2e test checks them with axe.
 */
import type { ThemeConfig } from 'antd';

/** Primary and link blue: 5.2:1 on white, 4.6:1 on its selected-row tint. */
export const PRIMARY = '#1668dc';

export const THEME = {
  token: {
    colorPrimary: PRIMARY,
    // Links, the processing tag and info texts derive from colorInfo.
    colorInfo: PRIMARY,
    colorLink: PRIMARY,
    // Overdue and errors (red-7): 5.6:1 on white, 5.1:1 on the error tint.
    colorError: '#cf1322',
    colorErrorText: '#cf1322',
    // Due soon and warnings (orange-8): 5.4:1 on white, 5.1:1 on the warning tint.
    colorWarning: '#ad4e00',
    colorWarningText: '#ad4e00',
    // Success (green-8): 5.4:1 on its tint.
    colorSuccess: '#237804',
    colorSuccessText: '#237804',
    // antd derives the state tints from the seed colour; from the darker seeds they turn grey, so
    // the tints stay antd's light ones (the text colours above reach 4.5:1 on each).
    colorPrimaryBg: '#e6f4ff',
    colorInfoBg: '#e6f4ff',
    colorPrimaryBorder: '#91caff',
    colorInfoBorder: '#91caff',
    colorErrorBg: '#fff2f0',
    colorErrorBgHover: '#fff1f0',
    colorErrorBorder: '#ffccc7',
    colorWarningBg: '#fffbe6',
    colorWarningBgHover: '#fff1b8',
    colorWarningBorder: '#ffe58f',
    colorSuccessBg: '#f6ffed',
    colorSuccessBgHover: '#d9f7be',
    colorSuccessBorder: '#b7eb8f',
    // Placeholders (a select's too, which is text to axe): 4.7:1 instead of antd's 1.8:1.
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    // Tags in preset colours show their level-7 text on the level-1 tint: the light hues are one level darker.
    gold7: '#874d00',
    orange7: '#ad4e00',
    green7: '#237804',
    cyan7: '#006d75',
    volcano7: '#ad2102',
    lime7: '#3f6600',
    // Secondary texts (help, placeholders' neighbours) at 7:1 instead of antd's 0.45 black (4.5:1 only on white).
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    borderRadius: 6,
    colorBgLayout: '#f0f2f5',
  },
  components: { Layout: { headerHeight: 56, headerPadding: '0 20px', siderBg: '#001529' } },
} satisfies ThemeConfig;
