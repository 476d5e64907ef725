/** A row of buttons of which one is chosen, as a radio group: percent or amount, the day of the sales. */
export function Segmented<T>({
  options,
  value,
  onChange,
  label,
}: {
  /** Each choice and its words (the words also key the button). */
  options: ReadonlyArray<readonly [T, string]>;
  value: T;
  onChange: (value: T) => void;
  label?: string;
}) {
  return (
    <div className="segmented" role="radiogroup" aria-label={label}>
      {options.map(([option, words]) => (
        <button
          key={words}
          type="button"
          role="radio"
          aria-checked={value === option}
          className={value === option ? 'on' : ''}
          onClick={() => onChange(option)}
        >
          {words}
        </button>
      ))}
    </div>
  );
}
