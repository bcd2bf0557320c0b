import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { Connection } from '../../lib/connection.ts';
import type { UpdateState } from './update-state.ts';

/** How long "back online" stays after the connection returns. */
const backOnlineNoticeMs = 3_000;

type ConnectionNotice = 'offline' | 'back-online' | null;

/** The offline banner under the top bar, the brief "back online" notice, and the update prompt. */
export function PwaNotices({ connection, updates }: { connection: Connection; updates: UpdateState }) {
  const { t } = useTranslation();
  const [notice, setNotice] = useState<ConnectionNotice>(connection.isOnline() ? null : 'offline');
  const reload = useSyncExternalStore(updates.subscribe, updates.getReload);
  const [isUpdateDismissed, setUpdateDismissed] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = connection.subscribe((isOnline) => {
      clearTimeout(timer);
      setNotice(isOnline ? 'back-online' : 'offline');
      if (isOnline) timer = setTimeout(() => setNotice(null), backOnlineNoticeMs);
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [connection]);

  return (
    <>
      <div className="pwa-connection" role="status" aria-live="polite">
        {notice === 'offline' ? <p className="pwa-connection__banner pwa-connection__banner--offline">{t('pwa.offline')}</p> : null}
        {notice === 'back-online' ? <p className="pwa-connection__banner pwa-connection__banner--online">{t('pwa.backOnline')}</p> : null}
      </div>
      {reload && !isUpdateDismissed ? (
        <div className="pwa-update" role="alert">
          <p className="pwa-update__text">{t('pwa.updateAvailable')}</p>
          <div className="pwa-update__actions">
            <button type="button" className="pwa-update__later" onClick={() => setUpdateDismissed(true)}>
              {t('pwa.later')}
            </button>
            <button type="button" className="pwa-update__reload" onClick={reload}>
              {t('common.reload')}
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
