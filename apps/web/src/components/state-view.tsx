import type { ReactNode } from 'react';
import { useTranslation } from '../lib/translator.ts';
import { isApiError } from '../lib/api-client.ts';
import { Icon, type IconName } from './icon.tsx';
import { cx } from '../lib/cx.ts';
import styles from './state-view.module.css';

/**
 * The loading, empty and error states every screen shows, in one look. `data-state-view` names the
 * state for a screen's own stylesheet and for the browser tests (the class is scoped).
 */
export function LoadingView({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className={styles.stateView} role="status" aria-live="polite" data-state-view="loading">
      <span className="spinner" aria-hidden="true" />
      <p className={styles.stateViewText}>{label ?? t('common.loading')}</p>
    </div>
  );
}

export function EmptyView({ title, hint, icon = 'inbox' }: { title: string; hint?: string; icon?: IconName }) {
  return (
    <div className={styles.stateView} data-state-view="empty">
      <span className={styles.stateViewIcon}>
        <Icon name={icon} size={28} />
      </span>
      <p className={styles.stateViewTitle}>{title}</p>
      {hint ? <p className={styles.stateViewText}>{hint}</p> : null}
    </div>
  );
}

/** Shows the server's translated reason when there is one, else the screen's own message. */
export function ErrorView({ title, error, onRetry, action }: { title: string; error?: unknown; onRetry?: () => void; action?: ReactNode }) {
  const { t } = useTranslation();
  const detail = isApiError(error) ? error.displayMessage : t('common.loadFailed');
  return (
    <div className={cx(styles.stateView, styles.stateViewError)} role="alert" data-state-view="error">
      <span className={styles.stateViewIcon}>
        <Icon name="alert" size={28} />
      </span>
      <p className={styles.stateViewTitle}>{title}</p>
      <p className={styles.stateViewText}>{detail}</p>
      {onRetry ? (
        <button type="button" className="btn btn--ghost btn--small" onClick={onRetry}>
          <Icon name="refresh" size={16} />
          {t('common.retry')}
        </button>
      ) : null}
      {action}
    </div>
  );
}
