import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Icon } from '../../components/icon.tsx';
import type { FeatureRoute } from '../../lib/feature.ts';
import { shortAddress } from '../../lib/format.ts';
import { requestSignIn } from '../../lib/sign-in-request.ts';
import { useSession } from '../../lib/use-session.ts';

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
    <header className="top-bar">
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
        <h1 className="top-bar__title">{t(route.titleKey)}</h1>
      ) : (
        <Link to={isSignedIn ? '/index' : '/'} className="top-bar__brand">
          <span className="top-bar__logo" aria-hidden="true">
            N
          </span>
          {t('app.name')}
        </Link>
      )}
      {isSignedIn ? (
        <Link to="/user" className="top-bar__account mono">
          <span className="top-bar__online" aria-hidden="true" />
          {shortAddress(walletAddress ?? '', 4, 4)}
        </Link>
      ) : (
        <button type="button" className="btn btn--small top-bar__connect" onClick={() => requestSignIn()}>
          {t('auth.connect')}
        </button>
      )}
    </header>
  );
}
