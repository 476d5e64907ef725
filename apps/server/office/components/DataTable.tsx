/** Rows of a list as a table that scrolls sideways on a phone: a caption, column heads (numbers right-aligned), the rows. */
import type { ReactNode } from 'react';

export interface Column {
  label: string;
  /** A number column, aligned right. */
  num?: boolean;
}

export function DataTable({
  caption,
  hideCaption = false,
  columns,
  testId,
  children,
}: {
  caption: string;
  /** The caption for screen readers only (the page's heading already says it). */
  hideCaption?: boolean;
  columns: readonly Column[];
  testId?: string;
  /** The `<tr>` rows. */
  children: ReactNode;
}) {
  return (
    // Focusable, so a table wider than a phone scrolls from the keyboard too.
    <div className="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="table" data-testid={testId}>
        <caption className={hideCaption ? 'sr-only' : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.num ? 'num' : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
