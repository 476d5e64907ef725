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
  className,
  children,
}: {
  /** Omitted where the rows speak for themselves under the page's heading. */
  caption?: string | undefined;
  /** The caption for screen readers only (the page's heading already says it). */
  hideCaption?: boolean;
  /** Each column's words, or its words and whether it holds numbers. */
  columns: ReadonlyArray<string | Column>;
  testId?: string;
  /** A class besides `table` (a section's column widths). */
  className?: string;
  /** The `<tr>` rows. */
  children: ReactNode;
}) {
  return (
    // Focusable, so a table wider than a phone scrolls from the keyboard too.
    <div className="table-wrap" tabIndex={0} role={caption ? 'region' : undefined} aria-label={caption}>
      <table className={className ? `table ${className}` : 'table'} data-testid={testId}>
        {caption && <caption className={hideCaption ? 'sr-only' : undefined}>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col" className={column.num ? 'num' : undefined}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A column of a `RowTable`: its heading, its cell for a row, whether it holds numbers (right-aligned) or must not wrap. */
export interface RowColumn<T> {
  label: string;
  cell: (row: T) => ReactNode;
  num?: boolean;
  nowrap?: boolean;
}

/** A `DataTable` of objects, a column's cell read from each; the first column heads its row. */
export function RowTable<T extends { id: string }>({
  rows,
  columns,
  testId,
  rowTestId,
  caption,
  empty,
}: {
  rows: T[];
  columns: Array<RowColumn<T>>;
  testId: string;
  rowTestId?: string;
  /** For screen readers (the page's heading already says it). */
  caption?: string;
  /** Said instead of an empty table. */
  empty?: string;
}) {
  const className = (column: RowColumn<T>) =>
    [column.num && 'num', column.nowrap && 'nowrap'].filter(Boolean).join(' ') || undefined;
  if (rows.length === 0 && empty) return <p className="muted">{empty}</p>;
  return (
    <DataTable caption={caption} hideCaption columns={columns} testId={testId}>
      {rows.map((row) => (
        <tr key={row.id} data-testid={rowTestId} data-id={row.id}>
          {columns.map((column, index) =>
            index === 0 ? (
              <th scope="row" key={column.label} className={className(column)}>
                {column.cell(row)}
              </th>
            ) : (
              <td key={column.label} className={className(column)}>
                {column.cell(row)}
              </td>
            ),
          )}
        </tr>
      ))}
    </DataTable>
  );
}
