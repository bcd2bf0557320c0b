import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from '../../lib/translator.ts';
import { Link, useLocation } from 'react-router';
import Popup from 'antd-mobile/es/components/popup';
import { Icon } from '../../components/icon.tsx';
import { resolveTo, type NavEntry } from '../../lib/feature.ts';
import { shortAddress } from '../../lib/format.ts';
import { requestSignIn } from '../../lib/sign-in-request.ts';
import { useSession } from '../../lib/use-session.ts';
import { sideMenuEntries } from '../features.ts';
import { cx } from '../../lib/cx.ts';
import styles from './side-menu.module.css';

interface Props {
  isOpen: boolean;
  onClose: () => void;
  /** The top bar's menu button: focus goes back to it when the menu closes (if it is still there). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}

const focusableSelector = 'a[href], button:not([disabled])';

/**
 * The side menu, a modal dialog: focus moves to its close button when it opens and stays inside
 * while it is open (Tab wraps), Escape or a tap on the mask closes it, and focus returns to the
 * menu button.
 */
export default function SideMenu({ isOpen, onClose, returnFocusTo }: Props) {
  const { t } = useTranslation();
  const location = useLocation();
  const { isSignedIn, walletAddress } = useSession();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    closeRef.current?.focus();
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      focusIfPresent(returnFocusTo);
    };
  }, [isOpen, onClose, returnFocusTo]);

  function open(event: { preventDefault: () => void }, entry: NavEntry, to: string) {
    onClose();
    if (entry.isAuth && !isSignedIn) {
      // An entry that needs a session asks for a signature first, then opens.
      event.preventDefault();
      requestSignIn({ redirectTo: to });
    }
  }

  return (
    <Popup visible={isOpen} onMaskClick={onClose} onClose={onClose} position="left" bodyClassName={styles.sideMenu} data-testid="side-menu">
      <div
        ref={dialogRef}
        className={styles.sideMenuDialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="side-menu-title"
        onKeyDown={(event) => trapTab(event, dialogRef.current)}
      >
        <div className={styles.sideMenuHead}>
          <span className={styles.sideMenuLogo} aria-hidden="true">
            N
          </span>
          <div className={styles.sideMenuBrand}>
            <strong id="side-menu-title">{t('app.name')}</strong>
            <span>{isSignedIn ? shortAddress(walletAddress ?? '') : t('app.tagline')}</span>
          </div>
          <button ref={closeRef} type="button" className={cx('icon-btn', styles.sideMenuClose)} aria-label={t('nav.closeMenu')} onClick={onClose}>
            <Icon name="close" />
          </button>
        </div>
        <nav aria-label={t('nav.menu')} className="side-menu__nav">
          <ul className={styles.sideMenuList}>
            {sideMenuEntries.map((entry) => {
              const to = resolveTo(entry, isSignedIn);
              const isActive = location.pathname === to;
              return (
                <li key={entry.id}>
                  <Link
                    to={to}
                    className={cx(styles.sideMenuItem, isActive && styles.sideMenuItemActive)}
                    onClick={(event) => open(event, entry, to)}
                    aria-current={isActive ? 'page' : undefined}
                  >
                    <Icon name={entry.icon} size={20} />
                    <span>{t(entry.labelKey)}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        {isSignedIn ? null : (
          <button
            type="button"
            className={cx('btn btn--block', styles.sideMenuConnect)}
            onClick={() => {
              onClose();
              requestSignIn();
            }}
          >
            <Icon name="wallet" size={18} />
            {t('auth.connect')}
          </button>
        )}
      </div>
    </Popup>
  );
}

/**
 * Read when the menu closes, not when it opened: a tap on an entry may have led to a screen whose
 * top bar shows a back arrow instead of the menu button, and then focus stays where it is.
 */
function focusIfPresent(ref: RefObject<HTMLElement | null>): void {
  if (ref.current?.isConnected) ref.current.focus();
}

/** Keeps Tab inside the dialog: past the last control it wraps to the first, and back. */
function trapTab(event: KeyboardEvent, dialog: HTMLElement | null): void {
  if (event.key !== 'Tab' || !dialog) return;
  const controls = [...dialog.querySelectorAll<HTMLElement>(focusableSelector)];
  const first = controls.at(0);
  const last = controls.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
