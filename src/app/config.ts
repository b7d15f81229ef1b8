/**
 * Runtime configuration (the "externally supplied application config" of the original API). The
 * server embeds it in the page (a JSON block, src/server/plugins/spa.ts), so it is there at the
 * first render; a page served without it (the dev server, a copied index.html) loads it once from
 * GET appConfig. Guards await `loadAppConfig()`, components use `useAppConfig()`.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { API, type AppConfig } from '../shared/contract';
import { get } from './api';

/** Used until the server answers, and if it cannot be reached. */
export const DEFAULT_APP_CONFIG: AppConfig = {
  productName: '特种设备企业服务平台',
  cityName: '宁波市',
  platformTitle: '特种设备企业服务平台',
  feedbackUrl: null,
  supportNote: null,
  manualUrl: null,
  links: {},
  ssoEntryUrl: null,
  ssoLogoutUrl: null,
  mustUpdatePwd: true,
  captchaEnabled: true,
  cookieExpiresHours: 8,
  provinceCode: '330000',
  areaCode: '330200',
};

/** The configuration the page carries, when the server embedded it. */
function embedded(): AppConfig | null {
  const text = typeof document === 'undefined' ? null : document.getElementById('app-config')?.textContent;
  if (!text) return null;
  try {
    return { ...DEFAULT_APP_CONFIG, ...(JSON.parse(text) as Partial<AppConfig>) };
  } catch {
    return null;
  }
}

let loaded: AppConfig | null = embedded();
let pending: Promise<AppConfig> | null = loaded ? Promise.resolve(loaded) : null;
/** Components showing the configuration (a plain store, not swr: the login page does not download swr's hook). */
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export function loadAppConfig(): Promise<AppConfig> {
  pending ??= get<AppConfig>(API.appConfig, { silent: true }).then(
    (config) => {
      loaded = { ...DEFAULT_APP_CONFIG, ...config };
      for (const listener of listeners) listener();
      return loaded;
    },
    () => {
      pending = null; // try again on the next navigation
      return DEFAULT_APP_CONFIG;
    },
  );
  return pending;
}

/** The configuration, or the defaults while it loads. */
export function useAppConfig(): AppConfig {
  const config = useSyncExternalStore(subscribe, () => loaded);
  useEffect(() => {
    if (!loaded) void loadAppConfig();
  }, []);
  return config ?? DEFAULT_APP_CONFIG;
}
