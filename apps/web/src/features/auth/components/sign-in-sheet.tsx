import { lazy, Suspense } from 'react';
import { useTranslation } from '../../../lib/translator.ts';
import { useLocation, useNavigate } from 'react-router';
import Popup from 'antd-mobile/es/components/popup';
import { ErrorView, LoadingView } from '../../../components/state-view.tsx';
import { Icon } from '../../../components/icon.tsx';
import { notify } from '../../../lib/notify.ts';
import type { SignInRequest } from '../../../lib/sign-in-request.ts';
import { useSignIn, type SheetView } from '../hooks/use-sign-in.ts';
import { InviteStep } from './invite-step.tsx';
import { SignStatus } from './sign-status.tsx';
import { WalletList } from './wallet-list.tsx';
import styles from './sign-in-sheet.module.css';

// Compile-time: staging and production builds drop this import and the demo picker with it.
const DemoAccounts = import.meta.env.MODE === 'development' ? lazy(() => import('./demo-accounts.tsx')) : null;

/** Screens where signing in should land on the signed-in home rather than stay put. */
const landingPaths = new Set(['/', '/transfer']);

interface Props {
  request: SignInRequest;
  isOpen: boolean;
  onClose: () => void;
}

export default function SignInSheet({ request, isOpen, onClose }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const isAccountChange = request.cause === 'account-changed';
  const flow = useSignIn({
    isAccountChange,
    onSignedIn() {
      notify(t('auth.signedIn'), 'success');
      onClose();
      const target = request.redirectTo ?? (landingPaths.has(location.pathname) ? '/index' : null);
      if (target) void navigate(target);
    },
  });

  return (
    <Popup visible={isOpen} onMaskClick={onClose} onClose={onClose} position="bottom" bodyClassName={styles.signSheet} destroyOnClose data-testid="sign-sheet">
      <div className={styles.signSheetGrip} aria-hidden="true" />
      <header className={styles.signSheetHeader}>
        <h2 className={styles.signSheetTitle}>{titleFor(flow.view, t)}</h2>
        <button type="button" className="icon-btn" aria-label={t('common.close')} onClick={onClose}>
          <Icon name="close" size={20} />
        </button>
      </header>
      {isAccountChange ? <p className={styles.signSheetBanner}>{t('auth.accountChanged')}</p> : null}
      <div className={styles.signSheetBody}>
        <SheetBody flow={flow} />
      </div>
    </Popup>
  );
}

function titleFor(view: SheetView, t: (key: string) => string): string {
  if (view.name === 'invite') return t('auth.inviteTitle');
  if (view.name === 'demo') return t('wallet.demoPickAccount');
  if (view.name === 'choose' || view.name === 'connecting') return t('wallet.sheetTitle');
  return t('auth.signIn');
}

function SheetBody({ flow }: { flow: ReturnType<typeof useSignIn> }) {
  const { t } = useTranslation();
  const { view, wallet } = flow;
  if (flow.loadError) return <ErrorView title={t('wallet.loadFailed')} error={flow.loadError} onRetry={flow.reload} />;
  if (!wallet) return <LoadingView />;
  switch (view.name) {
    case 'choose':
      return (
        <WalletList
          wallet={wallet}
          errorKey={view.errorKey}
          onChoose={(option, name) => {
            if (option.kind === 'demo') flow.setView({ name: 'demo' });
            else void flow.connectWith(option, name);
          }}
        />
      );
    case 'demo':
      if (!DemoAccounts || !wallet.demo) return null;
      return (
        <Suspense fallback={<LoadingView />}>
          <DemoAccounts
            demo={wallet.demo}
            onBack={() => flow.setView({ name: 'choose', errorKey: null })}
            onPick={(option) => void flow.connectWith(option, t('wallet.demoWallet'))}
            options={wallet.options()}
          />
        </Suspense>
      );
    case 'connecting':
      return <LoadingView label={t('wallet.connecting', { name: view.walletName })} />;
    case 'invite':
      return <InviteStep isRefused={view.isRefused} refusedCode={view.refusedCode} onSubmit={(code) => flow.submitInvite(code, view.signed)} />;
    default:
      return <SignStatus view={view} onRetry={flow.retrySign} onChooseAnother={() => flow.setView({ name: 'choose', errorKey: null })} />;
  }
}
