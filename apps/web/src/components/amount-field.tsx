import type { ReactNode } from 'react';
import { useTranslation } from '../lib/translator.ts';
import { formatAmount, toDecimalString } from '@nadi/money/money';
import { normaliseAmountInput } from '../lib/amount/amount-check.ts';
import { amountDigitsShown } from '../lib/money-format.ts';
import { cx } from '../lib/cx.ts';
import styles from './money.module.css';

interface Props {
  id: string;
  testId: string;
  value: string;
  onChange: (text: string) => void;
  /** The asset's symbol (NADI, USDT), shown after the number. */
  asset: string;
  /** Null when no balance limits the amount (paid from elsewhere): no "available" line and no "all". */
  availableUnits: bigint | null;
  /** Locale key of the "available" line; it receives {{amount}} and {{asset}}. */
  availableKey?: string;
  error: string | null;
  isDisabled?: boolean;
  /** Shown instead of the "available" line while `availableUnits` is null (a balance still loading, or failed). */
  availableNote?: ReactNode;
}

/** An amount with its asset, what is available, an "all" button and the field's message. */
export function AmountField({
  id,
  testId,
  value,
  onChange,
  asset,
  availableUnits,
  availableKey = 'amount.available',
  error,
  isDisabled = false,
  availableNote = null,
}: Props) {
  const { t } = useTranslation();
  const errorId = `${id}-error`;
  return (
    <div className="amount-field">
      <div className={styles.amountFieldHead}>
        <label htmlFor={id} className={styles.fieldLabel}>
          {t('amount.label')}
        </label>
        {availableUnits === null ? (
          availableNote
        ) : (
          <span className={styles.amountFieldAvailable}>
            {t(availableKey, { amount: formatAmount(availableUnits, { fractionDigitsMax: amountDigitsShown }), asset })}
          </span>
        )}
      </div>
      <div className={cx(styles.amountFieldBox, error && styles.amountFieldBoxError)}>
        <input
          id={id}
          data-testid={testId}
          className={cx(styles.amountFieldInput, 'mono')}
          inputMode="decimal"
          autoComplete="off"
          enterKeyHint="done"
          placeholder={t('amount.placeholder')}
          value={value}
          disabled={isDisabled}
          onChange={(event) => onChange(normaliseAmountInput(event.target.value))}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <span className={styles.amountFieldAsset}>{asset}</span>
        {/* The exact balance, every decimal, so "all" leaves nothing behind. */}
        {availableUnits === null ? null : (
          <button
            type="button"
            className={styles.amountFieldAll}
            onClick={() => onChange(toDecimalString(availableUnits))}
            disabled={isDisabled || availableUnits === 0n}
          >
            {t('amount.all')}
          </button>
        )}
      </div>
      {error ? (
        <p id={errorId} className={styles.fieldError} role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
