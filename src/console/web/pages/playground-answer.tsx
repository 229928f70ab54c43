/** The playground's answer: the results with their distance and open state, messages, paging and the JSON. */
import type { SearchAnswer } from '../api.js';

function ResultItem({ answer, index }: { answer: SearchAnswer; index: number }) {
  const l = answer.response.locations[index];
  const row = answer.rows[index];
  if (l === undefined) return null;
  return (
    <li data-id={l.id}>
      <strong>{l.name}</strong> <code>{l.id}</code>
      <br />
      {row !== undefined && row.distance !== null && <span data-testid="result-distance">{row.distance} · </span>}
      {row !== undefined && (
        <span data-testid="result-hours" class={`state ${row.hours.state}`}>
          {row.hours.text}
          {row.hours.state !== 'unknown' && row.hours.timezone !== null ? ` (${row.hours.timezone})` : ''}
        </span>
      )}{' '}
      · <a href={`#/why?id=${encodeURIComponent(l.id)}`}>why</a> · <a href={`#/hours?id=${encodeURIComponent(l.id)}`}>hours</a>
    </li>
  );
}

interface Props {
  answer: SearchAnswer | null;
  error: string | null;
  page: number;
  onNextPage: (cursor: string) => void;
}

export function AnswerSection({ answer, error, page, onNextPage }: Props) {
  const cursor = answer?.response.pagination.has_next_page === true ? answer.response.pagination.cursor : undefined;
  return (
    <section aria-labelledby="res-h" aria-live="polite">
      <h2 id="res-h">Answer</h2>
      {error !== null && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {answer !== null && (
        <>
          <p data-testid="total">
            Page {page}: {answer.response.locations.length} of {answer.response.pagination.total_count ?? '?'} Location(s).
          </p>
          <ol data-testid="results" class="results">
            {answer.response.locations.map((l, i) => (
              <ResultItem key={l.id} answer={answer} index={i} />
            ))}
          </ol>
          {(answer.response.messages ?? []).map((m, i) => (
            <p key={i} class="message">
              {m.type} {m.code}: {m.content}
            </p>
          ))}
          {cursor !== undefined && (
            <button type="button" onClick={() => onNextPage(cursor)}>
              Next page
            </button>
          )}
          <details>
            <summary>Answer JSON</summary>
            <pre tabIndex={0}>{JSON.stringify(answer.response, null, 2)}</pre>
          </details>
        </>
      )}
    </section>
  );
}
