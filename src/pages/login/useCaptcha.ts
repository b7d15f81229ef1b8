import { useCallback, useEffect, useRef, useState } from 'react';
import { getBlob } from '../../app/api';
import { API } from '../../shared/contract';

/** The captcha image as an object URL, fetched with cookies so its answer binds to this browser. */
export function useCaptcha(enabled: boolean): { src: string | null; refresh: () => void } {
  const [src, setSrc] = useState<string | null>(null);
  const current = useRef<string | null>(null);

  const refresh = useCallback(() => {
    if (!enabled) return;
    getBlob(API.captcha, { silent: true })
      .then((blob) => {
        const url = URL.createObjectURL(blob);
        if (current.current) URL.revokeObjectURL(current.current);
        current.current = url;
        setSrc(url);
      })
      .catch(() => setSrc(null));
  }, [enabled]);

  useEffect(() => {
    refresh();
    return () => {
      if (current.current) URL.revokeObjectURL(current.current);
      current.current = null;
    };
  }, [refresh]);

  return { src, refresh };
}
