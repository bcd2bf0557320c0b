import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from '../../lib/translator.ts';
import type { Connection } from '../../lib/connection.ts';
import type { UpdateState } from './update-state.ts';
import { cx } from '../../lib/cx.ts';
import styles from './pwa.module.css';

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
      <div className={styles.pwaConnection} role="status" aria-live="polite">
        {notice === 'offline' ? <p className={cx(styles.pwaConnectionBanner, styles.pwaConnectionBannerOffline)}>{t('pwa.offline')}</p> : null}
        {notice === 'back-online' ? <p className={cx(styles.pwaConnectionBanner, styles.pwaConnectionBannerOnline)}>{t('pwa.backOnline')}</p> : null}
      </div>
      {reload && !isUpdateDismissed ? (
        <div className={styles.pwaUpdate} role="alert">
          <p className={styles.pwaUpdateText}>{t('pwa.updateAvailable')}</p>
          <div className={styles.pwaUpdateActions}>
            <button type="button" className={styles.pwaUpdateLater} onClick={() => setUpdateDismissed(true)}>
              {t('pwa.later')}
            </button>
            <button type="button" className={styles.pwaUpdateReload} onClick={reload}>
              {t('common.reload')}
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
