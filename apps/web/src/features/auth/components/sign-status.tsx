import { useTranslation } from '../../../lib/translator.ts';
import { Icon, type IconName } from '../../../components/icon.tsx';
import type { SheetView } from '../hooks/use-sign-in.ts';
import { cx } from '../../../lib/cx.ts';
import styles from './sign-in-sheet.module.css';

interface Props {
  view: SheetView;
  onRetry: () => void;
  onChooseAnother: () => void;
}

interface StatusText {
  icon: IconName;
  title: string;
  hint: string;
  isBusy: boolean;
  isProblem: boolean;
}

function statusText(view: SheetView, t: (key: string) => string): StatusText {
  const problem = (title: string, hint: string): StatusText => ({ icon: 'alert', title, hint, isBusy: false, isProblem: true });
  switch (view.name) {
    case 'step':
      if (view.step === 'signing')
        return { icon: 'wallet', title: t('auth.waitingSignature'), hint: t('auth.waitingSignatureHint'), isBusy: true, isProblem: false };
      if (view.step === 'verifying') return { icon: 'shield', title: t('auth.verifying'), hint: '', isBusy: true, isProblem: false };
      return { icon: 'spark', title: t('auth.preparing'), hint: '', isBusy: true, isProblem: false };
    case 'canceled':
      return problem(t('wallet.signCanceled'), t('auth.canceledHint'));
    case 'failed':
      return problem(t(view.messageKey), t('auth.failedHint'));
    case 'invalid':
      return problem(t('wallet.signInvalid'), t('auth.invalidHint'));
    case 'error':
      return problem(t('auth.errorTitle'), view.message);
    default:
      return problem(t('api.failed'), '');
  }
}

/** The signing states (docs/product.md section 4): waiting for signature, then canceled, failed or invalid. */
export function SignStatus({ view, onRetry, onChooseAnother }: Props) {
  const { t } = useTranslation();
  const text = statusText(view, t);
  return (
    <div className={cx(styles.signStatus, text.isProblem && styles.signStatusProblem)} role={text.isProblem ? 'alert' : 'status'} aria-live="polite">
      <div className={cx(styles.signStatusBadge, text.isBusy && styles.signStatusBadgeBusy)}>
        <Icon name={text.icon} size={30} />
      </div>
      <p className={styles.signStatusTitle}>{text.title}</p>
      {text.hint ? <p className={styles.signStatusHint}>{text.hint}</p> : null}
      {text.isProblem ? (
        <div className={styles.signStatusActions}>
          <button type="button" className="btn btn--block" onClick={onRetry}>
            {t('auth.signAgain')}
          </button>
          <button type="button" className="btn btn--ghost btn--block" onClick={onChooseAnother}>
            {t('auth.chooseAnother')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
