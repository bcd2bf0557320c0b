import { useTranslation } from '../../../lib/translator.ts';
import { Icon } from '../../../components/icon.tsx';
import { walletAppLinks, type WalletAppId } from '../../../lib/wallet/deep-links.ts';
import binanceIcon from '../images/binance-web3-wallet.svg';
import metaMaskIcon from '../images/metamask.svg';
import okxIcon from '../images/okx-wallet.svg';
import tokenPocketIcon from '../images/tokenpocket.svg';
import trustIcon from '../images/trust-wallet.svg';
import styles from './sign-in-sheet.module.css';

// Bundled with the sheet (a lazy chunk): nothing is fetched from the wallets' sites.
const icons: Record<WalletAppId, string> = {
  metamask: metaMaskIcon,
  trust: trustIcon,
  okx: okxIcon,
  tokenpocket: tokenPocketIcon,
  binance: binanceIcon,
};

const hintKeys: Record<WalletAppId, string> = {
  metamask: 'wallet.apps.metamask',
  trust: 'wallet.apps.trust',
  okx: 'wallet.apps.okx',
  tokenpocket: 'wallet.apps.tokenpocket',
  binance: 'wallet.apps.binance',
};

/**
 * A phone's own browser has no wallet: each link opens this very page (path and query, so an invite
 * link keeps its code) in a wallet app's browser, where the wallet is injected and signs in.
 */
export function WalletApps({ pageUrl }: { pageUrl: string }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="wallet-apps-title" data-testid="wallet-apps">
      <h3 id="wallet-apps-title" className={styles.walletAppsTitle}>
        {t('wallet.apps.title')}
      </h3>
      <p className={styles.walletAppsLead}>{t('wallet.apps.lead')}</p>
      <ul className={styles.walletListItems}>
        {walletAppLinks(pageUrl).map((app) => (
          <li key={app.id}>
            <a className={styles.walletOption} href={app.href} rel="noreferrer" data-wallet-app={app.id}>
              <span className={styles.walletOptionIcon}>
                <img src={icons[app.id]} alt="" width={28} height={28} />
              </span>
              <span className={styles.walletOptionText}>
                <span className={styles.walletOptionName}>{app.name}</span>
                <span className={styles.walletOptionHint}>{t(hintKeys[app.id])}</span>
              </span>
              <Icon name="chevron" size={18} className={styles.walletOptionChevron} />
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
