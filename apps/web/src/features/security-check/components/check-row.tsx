import { Icon, type IconName } from '../../../components/icon.tsx';

export type CheckState = 'running' | 'ok' | 'warn' | 'fail';

export function CheckRow({ icon, label, state, detail }: { icon: IconName; label: string; state: CheckState; detail: string }) {
  return (
    <li className={`check-row check-row--${state}`}>
      <span className="check-row__icon">
        <Icon name={icon} size={20} />
      </span>
      <span className="check-row__text">
        <span className="check-row__label">{label}</span>
        <span className="check-row__detail">{detail}</span>
      </span>
      <span className="check-row__state" aria-hidden="true">
        {state === 'running' ? <span className="spinner spinner--small" /> : <Icon name={state === 'ok' ? 'check' : 'alert'} size={18} />}
      </span>
    </li>
  );
}
