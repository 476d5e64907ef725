/** A labelled choice of values (a filter, a type), each option with its words. */
export function SelectField<T extends string>({
  label,
  value,
  onChange,
  options,
  testId,
  'aria-describedby': describedBy,
}: {
  label: string;
  value: T;
  onChange: (value: T) => void;
  options: ReadonlyArray<readonly [T, string]>;
  testId?: string;
  /** The id of a hint that says more about the choice. */
  'aria-describedby'?: string;
}) {
  return (
    <label>
      {label}
      <select
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
        aria-describedby={describedBy}
        data-testid={testId}
      >
        {options.map(([option, words]) => (
          <option key={option} value={option}>
            {words}
          </option>
        ))}
      </select>
    </label>
  );
}
