import { useTranslation } from '../../../lib/translator.ts';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { quickEntries } from '../../../lib/app-navigation.ts';
import { resolveTo } from '../../../lib/feature.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { useSession } from '../../../lib/use-session.ts';
import styles from './home.module.css';

/**
 * The quick-entry grid: the screens that are neither a footer tab nor one tap from one (notices,
 * nodes, savings, deposits, orders…), so every screen is at most two taps from home. The entries
 * come from the features through lib (app/features.ts composes them); an entry that needs a
 * session asks a signed-out user to sign in first, then opens.
 */
export function QuickEntries() {
  const { t } = useTranslation();
  const { isSignedIn } = useSession();
  return (
    <nav className={styles.quickEntries} aria-label={t('nav.quickEntries')}>
      <ul className={styles.quickEntriesGrid}>
        {quickEntries().map((entry) => {
          const to = resolveTo(entry, isSignedIn);
          return (
            <li key={entry.id}>
              <Link
                to={to}
                className={styles.quickEntry}
                data-testid={`quick-entry-${entry.id}`}
                onClick={(event) => {
                  if (!entry.isAuth || isSignedIn) return;
                  event.preventDefault();
                  requestSignIn({ redirectTo: to });
                }}
              >
                <span className={styles.quickEntryIcon} aria-hidden="true">
                  <Icon name={entry.icon} size={20} />
                </span>
                <span className={styles.quickEntryLabel}>{t(entry.labelKey)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
