/** A labelled text field (or, with `rows`, a text area of lines) holding a string. */
import type { InputHTMLAttributes } from 'react';

type Attributes = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'children'>;

export function TextField({
  label,
  value,
  onChange,
  testId,
  rows,
  ...attributes
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId?: string;
  /** A text area of this many rows. */
  rows?: number;
} & Attributes) {
  return (
    <label>
      {label}
      {rows ? (
        <textarea
          rows={rows}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={attributes['aria-describedby']}
          data-testid={testId}
        />
      ) : (
        <input
          {...attributes}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
        />
      )}
    </label>
  );
}
