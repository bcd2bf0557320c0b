import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { quickEntries } from '../../../lib/app-navigation.ts';
import { resolveTo } from '../../../lib/feature.ts';
import { requestSignIn } from '../../../lib/sign-in-request.ts';
import { useSession } from '../../../lib/use-session.ts';

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
    <nav className="quick-entries" aria-label={t('nav.quickEntries')}>
      <ul className="quick-entries__grid">
        {quickEntries().map((entry) => {
          const to = resolveTo(entry, isSignedIn);
          return (
            <li key={entry.id}>
              <Link
                to={to}
                className="quick-entry"
                data-testid={`quick-entry-${entry.id}`}
                onClick={(event) => {
                  if (!entry.isAuth || isSignedIn) return;
                  event.preventDefault();
                  requestSignIn({ redirectTo: to });
                }}
              >
                <span className="quick-entry__icon" aria-hidden="true">
                  <Icon name={entry.icon} size={20} />
                </span>
                <span className="quick-entry__label">{t(entry.labelKey)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
