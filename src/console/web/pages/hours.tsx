/** The hours of one Location: this week's open spans in its own zone, now and the next change. */
import { useEffect, useState } from 'preact/hooks';
import { api, type HoursAnswer } from '../api.js';
import { useMapLocations } from '../locations.js';

function hhmm(minutes: number): string {
  const m = Math.min(minutes, 24 * 60);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "2 Dec" from 2026-12-02: unambiguous wherever the reader is from. */
function dayMonth(date: string): string {
  const [, month, day] = date.split('-').map(Number);
  return `${day ?? ''} ${MONTHS[(month ?? 1) - 1] ?? ''}`;
}

/** Tick labels of the timeline, placed at their hour (not spread by flexbox, which ran them together). */
const TICKS = [0, 6, 12, 18, 24] as const;

type Day = HoursAnswer['days'][number];

function TimelineHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Day</th>
        <th scope="col">Open</th>
        <th scope="col" class="timeline-head">
          <span class="sr">Timeline</span>
          <span aria-hidden="true" class="scale">
            {TICKS.map((h) => (
              <span key={h} style={{ left: `${(h / 24) * 100}%` }}>
                {String(h).padStart(2, '0')}
              </span>
            ))}
          </span>
        </th>
      </tr>
    </thead>
  );
}

/** One local day: its open spans in words and on a bar, with the now and next-change lines. */
function DayRow({ hours, day: d, index: i }: { hours: HoursAnswer; day: Day; index: number }) {
  return (
    <tr class={i === hours.today ? 'today' : undefined}>
      <th scope="row">
        {d.weekday.slice(0, 3)} {dayMonth(d.date)}
        {i === hours.today && <span class="sr"> (today)</span>}
      </th>
      <td data-testid="day-hours">
        {!d.known ? 'unknown' : d.open.length === 0 ? 'closed' : d.open.map(([a, b]) => `${hhmm(a)}–${hhmm(b)}`).join(', ')}
      </td>
      <td class="timeline" aria-hidden="true">
        <div class={`bar ${d.known ? '' : 'unknown'}`}>
          {d.open.map(([a, b]) => (
            <span key={a} class="open" style={{ left: `${(a / d.minutes) * 100}%`, width: `${((b - a) / d.minutes) * 100}%` }} />
          ))}
          {hours.nextChangeDay === i && hours.nextChangeMinute !== null && (
            <span class="change" style={{ left: `${(hours.nextChangeMinute / d.minutes) * 100}%` }} title="next change" />
          )}
          {hours.today === i && hours.nowMinute !== null && (
            <span class="now" data-testid="now-marker" style={{ left: `${(hours.nowMinute / d.minutes) * 100}%` }} title="now" />
          )}
        </div>
      </td>
    </tr>
  );
}

function WeekTable({ hours }: { hours: HoursAnswer }) {
  return (
    <table class="week">
      <caption>
        Open spans per local day; the red line is now
        {hours.nextChangeDay >= 0 ? ', the amber line the next change' : ''} (a day with a daylight-saving change is 23 or 25 hours long)
      </caption>
      <TimelineHead />
      <tbody>
        {hours.days.map((d, i) => (
          <DayRow key={d.date} hours={hours} day={d} index={i} />
        ))}
      </tbody>
    </table>
  );
}

function WeekSection({ hours }: { hours: HoursAnswer }) {
  const unknown = hours.status.state === 'unknown';
  return (
    <section aria-labelledby="week-h">
      <h2 id="week-h">
        {hours.name}: this week{hours.timezone !== null ? ` (times in ${hours.timezone})` : ''}
      </h2>
      <p data-testid="hours-now" class={`status ${hours.status.state}`}>
        <strong>{hours.status.text}</strong>
        {hours.now !== null && <span class="hint"> · now {hours.now} local</span>}
      </p>
      {unknown && hours.status.why !== null && (
        <p data-testid="hours-why">
          Why: {hours.status.why}. A search with an open-at filter never returns this Location; other searches still do.
        </p>
      )}
      {!unknown && hours.problems.length > 0 && (
        <ul class="error">
          {hours.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {hours.days.length > 0 && <WeekTable hours={hours} />}
    </section>
  );
}

export function HoursPage({ initialId }: { initialId: string }) {
  const { locations } = useMapLocations();
  const [id, setId] = useState(initialId);
  const [hours, setHours] = useState<HoursAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A link to another Location's hours while this page is open changes only the address.
  useEffect(() => {
    if (initialId !== '') setId(initialId);
  }, [initialId]);
  useEffect(() => {
    const first = locations?.[0]?.id;
    if (id === '' && first !== undefined) setId(first);
  }, [locations]);
  useEffect(() => {
    if (id === '') return;
    // Another Location's week replaces this one; nothing of the previous one stays on screen meanwhile.
    setHours((h) => (h !== null && h.id !== id ? null : h));
    api<HoursAnswer>(`/api/hours?id=${encodeURIComponent(id)}`).then(
      (h) => {
        setHours(h);
        setError(null);
      },
      (e: Error) => setError(e.message),
    );
  }, [id]);

  return (
    <div class="hours">
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
      {hours !== null && <WeekSection hours={hours} />}
    </div>
  );
}
