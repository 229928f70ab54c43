import { useEffect, useState } from 'preact/hooks';
import { api, type HoursAnswer } from '../api.js';
import { useMapLocations } from '../locations.js';

function hhmm(minutes: number): string {
  const m = Math.min(minutes, 24 * 60);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

export function HoursPage({ initialId }: { initialId: string }) {
  const { locations } = useMapLocations();
  const [id, setId] = useState(initialId);
  const [hours, setHours] = useState<HoursAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const first = locations?.[0]?.id;
    if (id === '' && first !== undefined) setId(first);
  }, [locations]);
  useEffect(() => {
    if (id === '') return;
    api<HoursAnswer>(`/api/hours?id=${encodeURIComponent(id)}`).then(
      (h) => {
        setHours(h);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  }, [id]);

  return (
    <div>
      <div class="field">
        <label for="hours-id">Location</label>
        <select id="hours-id" value={id} onChange={(e) => setId(e.currentTarget.value)}>
          {(locations ?? []).map((l) => (
            <option key={l.id} value={l.id}>
              {l.name} ({l.id})
            </option>
          ))}
        </select>
      </div>
      {error !== null && <p role="alert">{error}</p>}
      {hours !== null && (
        <section aria-labelledby="week-h">
          <h2 id="week-h">
            This week at {hours.name}, in {hours.timezone ?? 'no time zone'}
          </h2>
          <p data-testid="hours-now">
            Now ({hours.now ?? '?'} local) it is <strong>{hours.openNow ? 'open' : 'closed'}</strong>.{' '}
            {hours.nextChange !== null ? (
              <span class="next">
                Next change: {hours.nextChange.state === 'open' ? 'opens' : 'closes'} at {hours.nextChange.at}.
              </span>
            ) : (
              'No change within the next two weeks.'
            )}
          </p>
          {hours.problems.length > 0 && (
            <ul class="error">
              {hours.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
          <table class="week">
            <caption>Open spans per local day (a day with a daylight-saving change is 23 or 25 hours long)</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Open</th>
                <th scope="col">
                  <span class="sr">Timeline</span>
                  <span aria-hidden="true" class="scale">
                    <span>00</span>
                    <span>06</span>
                    <span>12</span>
                    <span>18</span>
                    <span>24</span>
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {hours.days.map((d, i) => (
                <tr key={d.date}>
                  <th scope="row">
                    {d.weekday} {d.date}
                  </th>
                  <td>{d.open.length === 0 ? 'closed' : d.open.map(([a, b]) => `${hhmm(a)}–${hhmm(b)}`).join(', ')}</td>
                  <td class="timeline" aria-hidden="true">
                    <div class="bar">
                      {d.open.map(([a, b]) => (
                        <span
                          key={a}
                          class="open"
                          style={{ left: `${(a / d.minutes) * 100}%`, width: `${((b - a) / d.minutes) * 100}%` }}
                        />
                      ))}
                      {hours.nextChangeDay === i && hours.nextChangeMinute !== null && (
                        <span class="change" style={{ left: `${(hours.nextChangeMinute / d.minutes) * 100}%` }} title="next change" />
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
