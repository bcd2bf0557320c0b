import { cx } from '../../../lib/cx.ts';
import moneyStyles from '../../../components/money.module.css';
import styles from './mining.module.css';
/** A calculator's input on /grow: a number with its unit beside it, and the problem with it, if any. */
export function CalculatorField({
  id,
  label,
  unit,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  unit: string;
  value: string;
  onChange: (text: string) => void;
  error: string | null;
}) {
  const errorId = `${id}-error`;
  return (
    <div className={styles.calculatorField}>
      <label htmlFor={id} className={cx(styles.fieldLabel, moneyStyles.fieldLabel)}>
        {label}
      </label>
      <div className={cx(moneyStyles.amountFieldBox, error && moneyStyles.amountFieldBoxError)}>
        <input
          id={id}
          data-testid={id}
          className={cx(moneyStyles.amountFieldInput, 'mono')}
          inputMode="decimal"
          autoComplete="off"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <span className={moneyStyles.amountFieldAsset}>{unit}</span>
      </div>
      {error ? (
        <p id={errorId} className={cx(styles.fieldError, moneyStyles.fieldError)} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
