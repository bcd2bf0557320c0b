import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { Icon } from '../../../components/icon.tsx';
import type { WalletMessageKey } from '../../../lib/wallet/wallet-errors.ts';
import type { WalletClient, WalletOption } from '../../../lib/wallet/wallet-types.ts';
import { WalletApps } from './wallet-apps.tsx';
import styles from './sign-in-sheet.module.css';

function useWalletOptions(wallet: WalletClient): WalletOption[] {
  const [options, setOptions] = useState(() => wallet.options());
  // EIP-6963 wallets announce themselves a moment after the request; the list follows.
  useEffect(() => wallet.onOptionsChange(() => setOptions(wallet.options())), [wallet]);
  return options;
}

function optionName(option: WalletOption, t: (key: string) => string): string {
  if (option.kind === 'browser') return t('wallet.browserWallet');
  if (option.kind === 'walletconnect') return t('wallet.walletConnect');
  if (option.kind === 'demo') return t('wallet.demoWallet');
  return option.name;
}

function optionHint(option: WalletOption, t: (key: string) => string): string {
  if (option.kind === 'walletconnect') return t('wallet.walletConnectHint');
  if (option.kind === 'demo') return t('wallet.demoWalletHint');
  return t('wallet.detected');
}

interface Props {
  wallet: WalletClient;
  errorKey: WalletMessageKey | null;
  onChoose: (option: WalletOption, displayName: string) => void;
}

export function WalletList({ wallet, errorKey, onChoose }: Props) {
  const { t } = useTranslation();
  const options = useWalletOptions(wallet);
  // Nothing injected (no EIP-6963 announcement, no window.ethereum): a phone's own browser. The
  // wallet apps' links come first, WalletConnect (when configured) and the demo wallet follow.
  const hasBrowserWallet = options.some((option) => option.kind === 'injected' || option.kind === 'browser');

  return (
    <div className="wallet-list">
      <p className={styles.signSheetLead}>{t('wallet.sheetSubtitle')}</p>
      {errorKey ? (
        <p className={styles.signSheetError} role="alert">
          <Icon name="alert" size={16} />
          {t(errorKey)}
        </p>
      ) : null}
      {hasBrowserWallet ? null : <WalletApps pageUrl={window.location.href} />}
      {hasBrowserWallet || options.length === 0 ? null : <p className={styles.walletAppsOther}>{t('wallet.apps.other')}</p>}
      {options.length === 0 ? null : (
        <ul className={styles.walletListItems}>
          {options.map((option) => {
            const name = optionName(option, t);
            return (
              <li key={option.id}>
                <button type="button" className={styles.walletOption} onClick={() => onChoose(option, name)}>
                  <span className={styles.walletOptionIcon}>
                    {option.icon ? (
                      <img src={option.icon} alt="" width={28} height={28} />
                    ) : (
                      <Icon name={option.kind === 'walletconnect' ? 'link' : 'wallet'} size={22} />
                    )}
                  </span>
                  <span className={styles.walletOptionText}>
                    <span className={styles.walletOptionName}>{name}</span>
                    <span className={styles.walletOptionHint}>{optionHint(option, t)}</span>
                  </span>
                  <Icon name="chevron" size={18} className={styles.walletOptionChevron} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <p className={styles.signSheetFineprint}>
        <Icon name="lock" size={14} />
        {t('wallet.safetyNote')}
      </p>
    </div>
  );
}
