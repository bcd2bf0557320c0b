import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/translator.ts';
import { EmptyView, ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { Icon } from '../../../components/icon.tsx';
import { shortAddress } from '../../../lib/format.ts';
import type { DemoWallet, WalletOption } from '../../../lib/wallet/wallet-types.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './sign-in-sheet.module.css';

// Development only: loaded behind `import.meta.env.MODE === 'development'` in sign-in-sheet.tsx.

interface Props {
  demo: DemoWallet;
  options: WalletOption[];
  onPick: (option: WalletOption) => void;
  onBack: () => void;
}

export default function DemoAccounts({ demo, options, onPick, onBack }: Props) {
  const { t } = useTranslation();
  const accounts = useQuery({ queryKey: ['demo-accounts'], queryFn: () => demo.listAccounts(), staleTime: Infinity });
  const option = options.find((item) => item.kind === 'demo');

  function pick(address: string) {
    if (!option) return;
    demo.selectAccount(address);
    onPick(option);
  }

  if (accounts.isPending) return <LoadingView />;
  if (accounts.isError) return <ErrorView title={t('wallet.demoNoAccounts')} error={accounts.error} onRetry={() => void accounts.refetch()} />;
  if (accounts.data.length === 0) return <EmptyView title={t('wallet.demoNoAccounts')} />;
  return (
    <div className="wallet-list">
      <p className={styles.signSheetLead}>{t('wallet.demoWalletHint')}</p>
      <ul className={styles.walletListItems}>
        {accounts.data.map((address, index) => (
          <li key={address}>
            <button type="button" className={styles.walletOption} onClick={() => pick(address)}>
              <span className={cx(styles.walletOptionIcon, 'mono')}>#{index}</span>
              <span className={styles.walletOptionText}>
                <span className={cx(styles.walletOptionName, 'mono')}>{shortAddress(address, 10, 8)}</span>
              </span>
              <Icon name="chevron" size={18} className={styles.walletOptionChevron} />
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn--ghost btn--block" onClick={onBack}>
        {t('common.back')}
      </button>
    </div>
  );
}
