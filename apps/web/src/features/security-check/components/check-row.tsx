import { Icon, type IconName } from '../../../components/icon.tsx';
import { cx, variant } from '../../../lib/cx.ts';
import styles from './security-check.module.css';

export type CheckState = 'running' | 'ok' | 'warn' | 'fail';

export function CheckRow({ icon, label, state, detail }: { icon: IconName; label: string; state: CheckState; detail: string }) {
  return (
    <li className={cx(styles.checkRow, variant(styles, `check-row--${state}`))}>
      <span className={styles.checkRowIcon}>
        <Icon name={icon} size={20} />
      </span>
      <span className={styles.checkRowText}>
        <span className={styles.checkRowLabel}>{label}</span>
        <span className={styles.checkRowDetail}>{detail}</span>
      </span>
      <span className={styles.checkRowState} aria-hidden="true">
        {state === 'running' ? <span className="spinner spinner--small" /> : <Icon name={state === 'ok' ? 'check' : 'alert'} size={18} />}
      </span>
    </li>
  );
}
