import type { RefObject } from 'react';
import { useTranslation } from '../../lib/translator.ts';
import { Link, useNavigate } from 'react-router';
import { Icon } from '../../components/icon.tsx';
import type { FeatureRoute } from '../../lib/feature.ts';
import { shortAddress } from '../../lib/format.ts';
import { requestSignIn } from '../../lib/sign-in-request.ts';
import { useSession } from '../../lib/use-session.ts';
import { cx } from '../../lib/cx.ts';
import styles from './top-bar.module.css';

interface Props {
  route: FeatureRoute | undefined;
  onOpenMenu: () => void;
  /** The side menu gives focus back to this button when it closes. */
  menuButtonRef: RefObject<HTMLButtonElement | null>;
}

export function TopBar({ route, onOpenMenu, menuButtonRef }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { isSignedIn, walletAddress } = useSession();
  const backTo = route?.backTo;

  function goBack() {
    // Back through history when the user came from inside the app, else to the parent screen.
    const index = (history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else if (backTo) void navigate(backTo, { replace: true });
  }

  return (
    <header className={styles.topBar} data-testid="top-bar">
      {backTo ? (
        <button type="button" className="icon-btn" aria-label={t('common.back')} onClick={goBack}>
          <Icon name="back" />
        </button>
      ) : (
        <button ref={menuButtonRef} type="button" className="icon-btn" aria-label={t('nav.openMenu')} aria-haspopup="dialog" onClick={onOpenMenu}>
          <Icon name="menu" />
        </button>
      )}
      {route?.titleKey ? (
        <h1 className={styles.topBarTitle}>{t(route.titleKey)}</h1>
      ) : (
        <Link to={isSignedIn ? '/index' : '/'} className={styles.topBarBrand}>
          <span className={styles.topBarLogo} aria-hidden="true">
            N
          </span>
          {t('app.name')}
        </Link>
      )}
      {isSignedIn ? (
        <Link to="/user" className={cx(styles.topBarAccount, 'mono')}>
          <span className={styles.topBarOnline} aria-hidden="true" />
          {shortAddress(walletAddress ?? '', 4, 4)}
        </Link>
      ) : (
        <button type="button" className={cx('btn btn--small', styles.topBarConnect)} onClick={() => requestSignIn()} data-testid="top-bar-connect">
          {t('auth.connect')}
        </button>
      )}
    </header>
  );
}
