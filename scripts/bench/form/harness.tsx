/**
 * In-page half of bench:form, shared by both pages (engine and hand-written baseline): the same
 * antd shell as the product entry (src/main.tsx + src/app/App.tsx: the React 19 patch first,
 * dayjs zh-cn, ConfigProvider zh_CN with the product's theme tokens, antd <App>), StrictMode, and
 * the measurements.
 *
 * First render: `render-start` just before createRoot().render(), `mounted` once the commit that
 * put the form's first screen in the DOM ran its layout effects (the probe after the form: form
 * items there and no part of the page in the viewport still pending — a lazily rendered part
 * marks its placeholder aria-busy="true"), `painted` when the frame after that was produced
 * (requestAnimationFrame, then a message: the task after the frame). `complete` is when all the
 * form's items are in the DOM (at once for a form rendered whole; a form that renders its parts
 * as they are reached gets there later, and must: the bench fails if it does not within 20 s).
 * `ready` is the time from navigation start until everything loaded (the page's boot).
 *
 * With `?wait` in the URL the page loads everything, sets `ready` and renders only when the driver
 * calls `window.__benchGo()` (so it can read the renderer's CPU counters right before).
 *
 * Keystrokes: for each keydown in the typing field, start = the event's timeStamp; `handled` = a
 * microtask queued by the input event (window listener, after React's root listener: the
 * synchronous re-render has happened); `frame` = the next requestAnimationFrame; `painted` = the
 * task after that frame. The node side reads `window.__bench`.
 */
import '@ant-design/v5-patch-for-react-19';
import { App as AntdApp, ConfigProvider, theme } from 'antd';
// The es build of the locale, as src/app/App.tsx imports it.
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { StrictMode, useLayoutEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import '../../../src/app/global.css';

dayjs.locale('zh-cn');

/** The product's theme (src/app/App.tsx THEME). */
const THEME = {
  token: { colorPrimary: '#1677ff', borderRadius: 6, colorBgLayout: '#f0f2f5' },
  components: { Layout: { headerHeight: 56, headerPadding: '0 20px', siderBg: '#001529' } },
  algorithm: theme.defaultAlgorithm,
};

export interface KeystrokeSample {
  start: number;
  handled: number;
  frame: number;
  painted: number;
}

export interface PageResult {
  variant: string;
  renderStart: number;
  mounted: number;
  painted: number;
  /** When all form items were in the DOM (0 until then). */
  complete: number;
  /** Form items in the DOM when the form counted as mounted. */
  items: number;
  /** Form items in the DOM at `complete`. */
  allItems: number;
  /** True when the first screen was there at the probe's layout effect (one commit). */
  oneCommit: boolean;
  /** Everything loaded; with `?wait`, rendering starts at `window.__benchGo()`. */
  ready: boolean;
  /** performance.now() (from navigation start) when everything had loaded. */
  readyAt: number;
  done: boolean;
  keystrokes: KeystrokeSample[];
  /** Extra in-page timings a page adds (the engine: compile times). */
  extra: Record<string, number>;
  error?: string;
}

declare global {
  interface Window {
    __bench?: PageResult;
    __benchGo?: () => void;
    __benchExtra?: () => Record<string, number>;
  }
}

export interface MountOptions {
  /** How many form items (`.ant-formily-item`) the form shows at first. */
  expectedItems: number;
  /** aria-label of the input the keystroke measurement types into. */
  typingLabel: string;
}

const ITEM_SELECTOR = '.ant-formily-item';

/** Runs `fn` in the task after the next frame was produced. */
function afterNextFrame(fn: (frameTime: number) => void): void {
  requestAnimationFrame(() => {
    const frame = performance.now();
    const channel = new MessageChannel();
    channel.port1.onmessage = () => fn(frame);
    channel.port2.postMessage(0);
  });
}

function instrumentKeystrokes(result: PageResult, typingLabel: string): void {
  let pending: KeystrokeSample | null = null;
  const isTarget = (target: EventTarget | null) => target instanceof HTMLElement && target.getAttribute('aria-label') === typingLabel;
  window.addEventListener(
    'keydown',
    (event) => {
      if (!isTarget(event.target)) return;
      // timeStamp is on the performance.now() clock; guard against an odd value from a synthetic event.
      const now = performance.now();
      const start = event.timeStamp > 0 && event.timeStamp <= now && now - event.timeStamp < 1000 ? event.timeStamp : now;
      pending = { start, handled: 0, frame: 0, painted: 0 };
    },
    true,
  );
  window.addEventListener('input', (event) => {
    if (!pending || !isTarget(event.target)) return;
    const sample = pending;
    pending = null;
    queueMicrotask(() => {
      sample.handled = performance.now();
    });
    afterNextFrame((frame) => {
      sample.frame = frame;
      sample.painted = performance.now();
      result.keystrokes.push(sample);
    });
  });
}

/** True when no placeholder of a lazily rendered part (aria-busy) is in the viewport. */
function firstScreenDone(): boolean {
  const height = window.innerHeight;
  return [...document.querySelectorAll('[aria-busy="true"]')].every((el) => {
    const rect = el.getBoundingClientRect();
    return rect.height === 0 || rect.bottom <= 0 || rect.top >= height;
  });
}

/**
 * Marks the form mounted once its first screen is in the DOM (normally at once: one commit), and
 * complete once every expected item is (gives up after 20 s).
 */
function Probe({ result, expectedItems, onMounted }: { result: PageResult; expectedItems: number; onMounted: () => void }) {
  useLayoutEffect(() => {
    const count = () => document.querySelectorAll(ITEM_SELECTOR).length;
    let mounted = false;
    const check = () => {
      const items = count();
      if (!mounted && items > 0 && firstScreenDone()) {
        mounted = true;
        result.mounted = performance.now();
        result.items = items;
        onMounted();
      }
      if (items >= expectedItems) {
        result.complete = performance.now();
        result.allItems = items;
        return true;
      }
      return false;
    };
    result.oneCommit = check() || mounted;
    if (result.complete) return;
    // Not all there yet (a lazy or deferred part): watch the DOM until it is, give up after 20 s.
    const observer = new MutationObserver(() => {
      if (check()) stop();
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
    const timer = setTimeout(() => {
      result.error = `only ${count()} of ${expectedItems} form items after 20 s`;
      stop();
    }, 20_000);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    return stop;
    // Once per page: the probe never re-renders with other props.
  }, []);
  return null;
}

/**
 * Renders `form` in the product's antd shell and measures until the frame after it mounted (then
 * `done`); `afterPaint` (extra measurements) runs when the driver calls `window.__benchExtra()`.
 */
export function mountBench(variant: string, form: ReactNode, { expectedItems, typingLabel }: MountOptions, afterPaint?: (result: PageResult) => void): void {
  const result: PageResult = {
    variant,
    renderStart: 0,
    mounted: 0,
    painted: 0,
    complete: 0,
    items: 0,
    allItems: 0,
    oneCommit: false,
    ready: false,
    readyAt: 0,
    done: false,
    keystrokes: [],
    extra: {},
  };
  window.__bench = result;
  window.addEventListener('error', (event) => {
    const error: unknown = event.error;
    const stack = typeof error === 'object' && error !== null && 'stack' in error ? error.stack : undefined;
    result.error = String(stack ?? event.message);
  });
  instrumentKeystrokes(result, typingLabel);
  const onMounted = () =>
    afterNextFrame(() => {
      result.painted = performance.now();
      result.done = true;
    });
  // Extra measurements run when the driver asks, after it read the counters of the render.
  window.__benchExtra = () => {
    afterPaint?.(result);
    return result.extra;
  };
  const start = () => {
    const root = createRoot(document.getElementById('root')!);
    performance.mark('render-start');
    result.renderStart = performance.now();
    root.render(
      <StrictMode>
        <ConfigProvider locale={zhCN} theme={THEME}>
          <AntdApp>
            {form}
            <Probe result={result} expectedItems={expectedItems} onMounted={onMounted} />
          </AntdApp>
        </ConfigProvider>
      </StrictMode>,
    );
  };
  result.readyAt = performance.now();
  result.ready = true;
  if (new URLSearchParams(location.search).has('wait')) window.__benchGo = start;
  else start();
}

/** Reports a failure before mounting (e.g. the engine could not load the screen). */
export function failBench(variant: string, error: unknown): void {
  window.__bench = {
    variant,
    renderStart: 0,
    mounted: 0,
    painted: 0,
    complete: 0,
    items: 0,
    allItems: 0,
    oneCommit: false,
    ready: true,
    readyAt: performance.now(),
    done: true,
    keystrokes: [],
    extra: {},
    error: String((error as Error)?.stack ?? error),
  };
}
