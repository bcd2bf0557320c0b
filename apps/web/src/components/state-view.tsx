import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../lib/api-client.ts';
import { Icon, type IconName } from './icon.tsx';
import './state-view.css';

/** The loading, empty and error states every screen shows, in one look. */
export function LoadingView({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="state-view" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <p className="state-view__text">{label ?? t('common.loading')}</p>
    </div>
  );
}

export function EmptyView({ title, hint, icon = 'inbox' }: { title: string; hint?: string; icon?: IconName }) {
  return (
    <div className="state-view">
      <span className="state-view__icon">
        <Icon name={icon} size={28} />
      </span>
      <p className="state-view__title">{title}</p>
      {hint ? <p className="state-view__text">{hint}</p> : null}
    </div>
  );
}

/** Shows the server's translated reason when there is one, else the screen's own message. */
export function ErrorView({ title, error, onRetry, action }: { title: string; error?: unknown; onRetry?: () => void; action?: ReactNode }) {
  const { t } = useTranslation();
  const detail = isApiError(error) ? error.displayMessage : t('common.loadFailed');
  return (
    <div className="state-view state-view--error" role="alert">
      <span className="state-view__icon">
        <Icon name="alert" size={28} />
      </span>
      <p className="state-view__title">{title}</p>
      <p className="state-view__text">{detail}</p>
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
