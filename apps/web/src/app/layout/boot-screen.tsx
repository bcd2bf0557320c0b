import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icon.tsx';

/** Shown when a screen failed; reloading from home fetches the current code. */
export function ScreenCrash() {
  const { t } = useTranslation();
  return (
    <div className="boot" role="alert">
      <span className="boot__icon">
        <Icon name="alert" size={30} />
      </span>
      <p className="boot__title">{t('common.crashTitle')}</p>
      <p className="boot__text">{t('common.crashHint')}</p>
      <button type="button" className="btn btn--small" onClick={() => globalThis.location.assign('/')}>
        {t('common.reload')}
      </button>
    </div>
  );
}
