/** Import problems or warnings, each distinct one once with how often and where; the allowed fields said once below. */
import type { GroupedIssues } from './api.js';
import { TableHead } from './table-head.js';

export function IssueTable({ grouped, caption, testid }: { grouped: GroupedIssues; caption: string; testid: string }) {
  if (grouped.groups.length === 0) return null;
  return (
    <div class="issues">
      <table data-testid={testid}>
        <caption>{caption}</caption>
        <TableHead columns={['Field', 'Problem', 'Times', 'Where']} />
        <tbody>
          {grouped.groups.map((g) => (
            <tr key={`${g.field}\u0000${g.message}`}>
              <td>
                <code>{g.field === '' ? '(record)' : g.field}</code>
              </td>
              <td>{g.message}</td>
              <td class="num">{g.count.toLocaleString('en-US')}</td>
              <td>
                <code>{g.places.join(', ')}</code>
                {g.count > g.places.length ? ' …' : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {grouped.allowedFields !== null && (
        <p class="hint" data-testid={`${testid}-allowed`}>
          Allowed fields in this format: {grouped.allowedFields}
        </p>
      )}
    </div>
  );
}
