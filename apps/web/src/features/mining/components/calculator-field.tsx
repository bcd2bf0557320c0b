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
    <div className="calculator__field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className={`amount-field__box${error ? ' amount-field__box--error' : ''}`}>
        <input
          id={id}
          data-testid={id}
          className="amount-field__input mono"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <span className="amount-field__asset">{unit}</span>
      </div>
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
