import { Link } from 'react-router';
import { Icon, type IconName } from './icon.tsx';
import styles from './action-grid.module.css';

export interface GridAction {
  to: string;
  /** Translated text under the icon. */
  label: string;
  icon: IconName;
}

/** Rows of three when that fills them evenly (six actions), else rows of four. */
export function actionColumns(count: number): number {
  return count % 4 !== 0 && count % 3 === 0 ? 3 : 4;
}

/** Shortcuts as round icons with a label, in rows that fill evenly. */
export function ActionGrid({ actions, label }: { actions: GridAction[]; label?: string }) {
  return (
    <nav className={styles.actionGrid} aria-label={label} style={{ gridTemplateColumns: `repeat(${actionColumns(actions.length)}, 1fr)` }}>
      {actions.map((action) => (
        <Link key={action.to} to={action.to} className={styles.actionGridItem}>
          <span className={styles.actionGridIcon}>
            <Icon name={action.icon} size={22} />
          </span>
          <span className={styles.actionGridLabel}>{action.label}</span>
        </Link>
      ))}
    </nav>
  );
}
