import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A list's table: its caption (the table's accessible name, visually hidden), one header per column, then the rows. */
export function DataTable({ caption, columns, children }: { caption: string; columns: ReactNode[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A row's first cell: the record's name linking to its page, with an optional muted line under it. */
export function NameCell({ to, name, detail }: { to: string; name: ReactNode; detail?: ReactNode }) {
  return (
    <td>
      <Link className="row-link" to={to}>
        {name}
      </Link>
      {detail ? <div className="muted">{detail}</div> : null}
    </td>
  );
}
