import { useTranslation } from '../../lib/translator.ts';
import { NavLink } from 'react-router';
import { Icon } from '../../components/icon.tsx';
import { resolveTo } from '../../lib/feature.ts';
import { requestSignIn } from '../../lib/sign-in-request.ts';
import { useSession } from '../../lib/use-session.ts';
import { footerTabs } from '../features.ts';
import { cx } from '../../lib/cx.ts';
import styles from './footer-tabs.module.css';

export function FooterTabs() {
  const { t } = useTranslation();
  const { isSignedIn } = useSession();

  return (
    <nav className={styles.tabBar} aria-label={t('nav.tabs')}>
      {footerTabs.map((tab) => {
        const to = resolveTo(tab, isSignedIn);
        return (
          <NavLink
            key={tab.id}
            to={to}
            end
            className={({ isActive }) => cx(styles.tabBarItem, isActive && styles.tabBarItemActive)}
            onClick={(event) => {
              if (!tab.isAuth || isSignedIn) return;
              // A tab that needs a session asks for a signature first, then opens.
              event.preventDefault();
              requestSignIn({ redirectTo: to });
            }}
          >
            <Icon name={tab.icon} size={22} />
            <span>{t(tab.labelKey)}</span>
          </NavLink>
        );
      })}
    </nav>
  );
}
