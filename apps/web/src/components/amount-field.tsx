import { useTranslation } from 'react-i18next';
import { formatAmount, toDecimalString } from '@nadi/money/money';
import { normaliseAmountInput } from '../lib/amount/amount-check.ts';
import { amountDigitsShown } from '../lib/money-format.ts';
import './money.css';

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
}

/** An amount with its asset, what is available, an "all" button and the field's message. */
export function AmountField({ id, testId, value, onChange, asset, availableUnits, availableKey = 'amount.available', error, isDisabled = false }: Props) {
  const { t } = useTranslation();
  const errorId = `${id}-error`;
  return (
    <div className="amount-field">
      <div className="amount-field__head">
        <label htmlFor={id} className="field-label">
          {t('amount.label')}
        </label>
        {availableUnits === null ? null : (
          <span className="amount-field__available">
            {t(availableKey, { amount: formatAmount(availableUnits, { fractionDigitsMax: amountDigitsShown }), asset })}
          </span>
        )}
      </div>
      <div className={`amount-field__box${error ? ' amount-field__box--error' : ''}`}>
        <input
          id={id}
          data-testid={testId}
          className="amount-field__input mono"
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
        <span className="amount-field__asset">{asset}</span>
        {/* The exact balance, every decimal, so "all" leaves nothing behind. */}
        {availableUnits === null ? null : (
          <button
            type="button"
            className="amount-field__all"
            onClick={() => onChange(toDecimalString(availableUnits))}
            disabled={isDisabled || availableUnits === 0n}
          >
            {t('amount.all')}
          </button>
        )}
      </div>
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
