import { Icon } from './icon.tsx';
import styles from './filter-select.module.css';

interface Props<V extends string> {
  label: string;
  /** Undefined shows every value. */
  value: V | undefined;
  allLabel: string;
  options: { value: V; label: string }[];
  onChange: (value: V | undefined) => void;
}

/**
 * A list filter as the phone's own picker: long option lists (the record types, the power log types) scroll natively
 * and need no extra code.
 */
export function FilterSelect<V extends string>({ label, value, allLabel, options, onChange }: Props<V>) {
  return (
    <label className={styles.filterSelect}>
      <span className={styles.filterSelectLabel}>{label}</span>
      <select value={value ?? ''} onChange={(event) => onChange(options.find((option) => option.value === event.target.value)?.value)}>
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Icon name="chevron" size={16} className={styles.filterSelectChevron} />
    </label>
  );
}
