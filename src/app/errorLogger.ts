/**
 * Script error reporting (the original error log entry and error handling): window errors, unhandled rejections and render errors
 * go to POST save_error_logger with type `script`, code 0, the message and the page address, and
 * into a local error list. Disabled in development, like the original error-store plugin.
 */
import { useSyncExternalStore } from 'react';
import { API, type ErrorLogEntry } from '../shared/contract';
import { ApiError, post } from './api';
import { session } from './session';

const ENABLED = !import.meta.env.DEV;
const MAX_LOCAL_ENTRIES = 50;

let entries: readonly ErrorLogEntry[] = [];
const listeners = new Set<() => void>();

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.stack ? `${error.message}\n${error.stack}` : error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** Reports one error (ignored in development; API failures are already shown to the user). */
export function reportError(error: unknown): void {
  if (!ENABLED || error instanceof ApiError) return;
  const { token, user } = session.get();
  const entry: ErrorLogEntry = {
    type: 'script',
    code: 0,
    mes: messageOf(error).slice(0, 8000),
    url: window.location.href.slice(0, 2000),
    time: new Date().toISOString(),
    token: token ?? undefined,
    userId: user?.id,
    userName: user?.name,
  };
  entries = [entry, ...entries].slice(0, MAX_LOCAL_ENTRIES);
  listeners.forEach((l) => l());
  // The whole error log entry goes on the wire; the server believes the session, not the body, for who sent it.
  post(API.saveErrorLogger, entry, { silent: true }).catch(() => undefined);
}

export function installErrorReporting(): void {
  window.addEventListener('error', (event) => reportError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason));
}

/** The errors reported in this page life, newest first. */
export function useErrorList(): readonly ErrorLogEntry[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => entries,
  );
}
