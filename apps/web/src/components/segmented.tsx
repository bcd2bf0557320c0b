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
}: {
  label: string;
  value: V;
  options: SegmentOption<V>[];
  onChange: (value: V) => void;
}) {
  return (
    <div className="segmented" role="radiogroup" aria-label={label}>
      {options.map((option) => {
        const isActive = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={isActive}
            className={`segmented__item${isActive ? ' segmented__item--active' : ''}`}
            onClick={() => onChange(option.value)}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
