import { useTranslation } from '../../lib/translator.ts';
import { Icon } from '../../components/icon.tsx';
import styles from './boot-screen.module.css';

/** Shown when a screen failed; reloading from home fetches the current code. */
export function ScreenCrash() {
  const { t } = useTranslation();
  return (
    <div className={styles.boot} role="alert">
      <span className={styles.bootIcon}>
        <Icon name="alert" size={30} />
      </span>
      <p className={styles.bootTitle}>{t('common.crashTitle')}</p>
      <p className={styles.bootText}>{t('common.crashHint')}</p>
      <button type="button" className="btn btn--small" onClick={() => globalThis.location.assign('/')}>
        {t('common.reload')}
      </button>
    </div>
  );
}
