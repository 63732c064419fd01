import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

/**
 * Back from the OAuth dialog, the server's callback lands on /operation/auth?connected=<id> or
 * ?error=<message>: say how it went once, then take the parameters out of the URL (replacing
 * the entry, so back and refresh do not say it again).
 */
export function useOauthReturn(onConnected: (id: number) => void) {
  const { t } = useTranslation('assets');
  const { message, notification } = App.useApp();
  const [params, setParams] = useSearchParams();
  const connected = params.get('connected');
  const error = params.get('error');
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (connected === null && error === null) return;
    const key = `${connected}|${error}`;
    // StrictMode runs effects twice; one message per return.
    if (handled.current === key) return;
    handled.current = key;
    if (connected !== null) {
      message.success({ content: t('personal.oauth.connected'), duration: 6 });
      const id = Number(connected);
      if (Number.isInteger(id) && id > 0) onConnected(id);
    } else {
      notification.error({ title: t('personal.oauth.failed'), description: error, duration: 10 });
    }
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('connected');
        next.delete('error');
        return next;
      },
      { replace: true },
    );
  }, [connected, error, message, notification, onConnected, setParams, t]);
}
