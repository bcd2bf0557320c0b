import { cx } from '../lib/cx.ts';
import styles from './money.module.css';
export interface SegmentOption<V extends string> {
  value: V;
  label: string;
}

/** A small set of mutually exclusive choices (an asset, a direction), all visible at once. */
export function Segmented<V extends string>({
  label,
  value,
  options,
  onChange,
  itemClassName,
}: {
  label: string;
  value: V;
  options: SegmentOption<V>[];
  onChange: (value: V) => void;
  /** A screen's own class for each choice (its module's classes cannot reach this component's). */
  itemClassName?: string;
}) {
  return (
    <div className={styles.segmented} role="radiogroup" aria-label={label}>
      {options.map((option) => {
        const isActive = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={isActive}
            className={cx(styles.segmentedItem, isActive && styles.segmentedItemActive, itemClassName)}
            onClick={() => onChange(option.value)}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
