/** SWR read hooks over the api module: components read server data only through these. */
import useSWR, { type SWRResponse } from 'swr';
import { API, type UnitInfo } from '../shared/contract';
import { ApiError, get } from './api';
import { useSession } from './session';

/**
 * GET `path` (null: do not fetch yet), keyed by path and session so a new login refetches. Nothing
 * is fetched without a session: a logout clears the token while the page is still on screen, and a
 * read without it would only come back as 401 (and the session-expired message).
 */
export function useApiGet<T>(path: string | null): SWRResponse<T, ApiError> {
  const { token } = useSession();
  return useSWR<T, ApiError, [string, string] | null>(path && token ? [path, token] : null, ([p]) => get<T>(p));
}

/** The current user's unit (welcome card). */
export function useUnit(): SWRResponse<UnitInfo, ApiError> {
  return useApiGet<UnitInfo>(API.unit);
}
