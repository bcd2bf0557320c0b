import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import Popup from 'antd-mobile/es/components/popup';
import { Icon } from '../../components/icon.tsx';
import { resolveTo, type NavEntry } from '../../lib/feature.ts';
import { shortAddress } from '../../lib/format.ts';
import { requestSignIn } from '../../lib/sign-in-request.ts';
import { useSession } from '../../lib/use-session.ts';
import { sideMenuEntries } from '../features.ts';

export default function SideMenu({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { isSignedIn, walletAddress } = useSession();

  function open(entry: NavEntry) {
    const to = resolveTo(entry, isSignedIn);
    onClose();
    if (entry.isAuth && !isSignedIn) requestSignIn({ redirectTo: to });
    else void navigate(to);
  }

  return (
    <Popup visible={isOpen} onMaskClick={onClose} onClose={onClose} position="left" bodyClassName="side-menu">
      <div className="side-menu__head">
        <span className="top-bar__logo" aria-hidden="true">
          N
        </span>
        <div className="side-menu__brand">
          <strong>{t('app.name')}</strong>
          <span>{isSignedIn ? shortAddress(walletAddress ?? '') : t('app.tagline')}</span>
        </div>
      </div>
      <nav aria-label={t('nav.menu')}>
        <ul className="side-menu__list">
          {sideMenuEntries.map((entry) => {
            const isActive = location.pathname === resolveTo(entry, isSignedIn);
            return (
              <li key={entry.id}>
                <button
                  type="button"
                  className={`side-menu__item${isActive ? ' side-menu__item--active' : ''}`}
                  onClick={() => open(entry)}
                  aria-current={isActive ? 'page' : undefined}
                >
                  <Icon name={entry.icon} size={20} />
                  <span>{t(entry.labelKey)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
      {isSignedIn ? null : (
        <button
          type="button"
          className="btn btn--block side-menu__connect"
          onClick={() => {
            onClose();
            requestSignIn();
          }}
        >
          <Icon name="wallet" size={18} />
          {t('auth.connect')}
        </button>
      )}
    </Popup>
  );
}
