/** A retail table's header row: each column's words, numbers' columns aligned right. */
export function Head({ columns }: { columns: ReadonlyArray<string | { num: string }> }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === 'string' ? (
            <th scope="col" key={column}>
              {column}
            </th>
          ) : (
            <th scope="col" className="num" key={column.num}>
              {column.num}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
