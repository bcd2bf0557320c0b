import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/translator.ts';
import { useNavigate } from 'react-router';
import { Icon } from '../../../components/icon.tsx';
import { markSecurityChecked } from '../../../lib/first-visit.ts';
import { discoverWallets } from '../../../lib/wallet/discover-wallets.ts';
import { useHealth } from '../api/get-health.ts';
import { CheckRow, type CheckState } from './check-row.tsx';
import { cx } from '../../../lib/cx.ts';
import styles from './security-check.module.css';

function useWalletCheck() {
  return useQuery({ queryKey: ['security-check', 'wallets'], queryFn: () => discoverWallets(), staleTime: 0, gcTime: 0 });
}

export default function SecurityCheckPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const health = useHealth();
  const wallets = useWalletCheck();
  const isSecure = globalThis.isSecureContext === true;

  // docs/product.md section 2: the first visit passes through here once; having seen the screen is what counts.
  useEffect(() => markSecurityChecked(), []);

  const apiState: CheckState = health.isPending ? 'running' : health.isSuccess ? 'ok' : 'fail';
  const walletNames = wallets.data
    ? wallets.data.names.length
      ? wallets.data.names.join(', ')
      : wallets.data.hasInjected
        ? t('wallet.browserWallet')
        : ''
    : '';
  const walletState: CheckState = wallets.isPending ? 'running' : walletNames ? 'ok' : 'warn';
  const isRunning = apiState === 'running' || walletState === 'running';
  const hasProblem = !isSecure || apiState === 'fail' || walletState === 'warn';

  function recheck() {
    void health.refetch();
    void wallets.refetch();
  }

  return (
    <div className={styles.security}>
      <div className={styles.securityHero}>
        <div className={cx(styles.securityShield, isRunning && styles.securityShieldScanning)} data-testid="security-shield" data-scanning={isRunning}>
          <Icon name="shield" size={44} />
        </div>
        <h1 className={styles.securityTitle}>{t('security.title')}</h1>
        <p className={styles.securitySubtitle}>{t('security.subtitle')}</p>
      </div>
      <ul className={cx(styles.securityChecks, 'card')}>
        <CheckRow
          icon="lock"
          label={t('security.secureContext')}
          state={isSecure ? 'ok' : 'fail'}
          detail={isSecure ? t('security.secureContextOk') : t('security.secureContextFail')}
        />
        <CheckRow
          icon="network"
          label={t('security.api')}
          state={apiState}
          detail={apiState === 'running' ? t('security.checking') : apiState === 'ok' ? t('security.apiOk') : t('security.apiFail')}
        />
        <CheckRow
          icon="wallet"
          label={t('security.wallet')}
          state={walletState}
          detail={
            walletState === 'running'
              ? t('security.checking')
              : walletState === 'ok'
                ? t('security.walletOk', { names: walletNames })
                : t('security.walletNone')
          }
        />
      </ul>
      <p className={styles.securitySummary} aria-live="polite">
        {isRunning ? t('security.checking') : hasProblem ? t('security.warnings') : t('security.done')}
      </p>
      <div className={styles.securityActions}>
        <button type="button" className="btn btn--block" disabled={isRunning} onClick={() => void navigate('/', { replace: true })}>
          {t('security.continue')}
        </button>
        {hasProblem && !isRunning ? (
          <button type="button" className="btn btn--ghost btn--block" onClick={recheck}>
            <Icon name="refresh" size={18} />
            {t('security.recheck')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
