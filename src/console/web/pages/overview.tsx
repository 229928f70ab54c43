import { useEffect, useState } from 'preact/hooks';
import { api, type LastImport, type Overview } from '../api.js';
import { IssueTable } from '../issue-table.js';

type Row = { key: string; count: number; description?: string | null };

function TallyTable({ caption, rows, first }: { caption: string; rows: Row[]; first: string }) {
  const shown = rows.slice(0, 12);
  const described = rows.some((r) => r.description !== undefined);
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{first}</th>
          {described && <th scope="col">Description</th>}
          <th scope="col">Locations</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((r) => (
          <tr key={r.key}>
            <td>{described ? <code>{r.key}</code> : r.key}</td>
            {described && <td>{r.description ?? '—'}</td>}
            <td class="num">{r.count.toLocaleString('en-US')}</td>
          </tr>
        ))}
        {rows.length > shown.length && (
          <tr>
            <td colSpan={described ? 3 : 2}>… and {rows.length - shown.length} more</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

const n = (x: number): string => x.toLocaleString('en-US');

function Attention(props: { label: string; testid: string; count: number; first: { id: string; name: string }[]; link: 'hours' | 'why' }) {
  return (
    <div class={props.count > 0 ? 'needs' : ''}>
      <dt>{props.label}</dt>
      <dd data-testid={props.testid}>{n(props.count)}</dd>
      {props.first.length > 0 && (
        <dd class="first">
          {props.first.map((l, i) => (
            <span key={l.id}>
              {i > 0 ? ', ' : ''}
              <a href={`#/${props.link}?id=${encodeURIComponent(l.id)}`}>{l.name}</a>
            </span>
          ))}
          {props.count > props.first.length ? ', …' : ''}
        </dd>
      )}
    </div>
  );
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}

function LastImportSection({ last }: { last: LastImport | null }) {
  if (last === null) return <p>No import is recorded in this store yet.</p>;
  const files = last.files.map((f) => `${f.file} (${f.format}, ${n(f.records)} records)`).join(', ');
  return (
    <>
      <p data-testid="last-import">
        {when(last.at)}: {n(last.locations)} Locations ({n(last.publicLocations)} public){files !== '' ? ` from ${files}` : ''}
        {last.availability > 0 ? `, with ${n(last.availability)} stock rows` : ''}.{' '}
        {last.warningCount === 0 ? 'No warnings.' : `${n(last.warningCount)} warning(s): source data the Locations could not hold.`}
      </p>
      <IssueTable grouped={last.warningGroups} caption="Warnings of the last import" testid="import-warnings" />
      {last.warningCount > last.warnings.length && (
        <p class="hint">
          The store keeps the first {n(last.warnings.length)}; run <code>ucp-location validate --json</code> on the file for them all.
        </p>
      )}
    </>
  );
}

export function OverviewPage() {
  const [data, setData] = useState<Overview | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<Overview>('/api/overview').then(setData, (e: Error) => setError(e.message));
  }, []);
  if (error !== null) return <p role="alert">{error}</p>;
  if (data === null) return <p aria-live="polite">Loading…</p>;
  const a = data.attention;
  return (
    <div class="overview">
      <section aria-labelledby="attention-h" class="cards">
        <h2 id="attention-h">Needs attention</h2>
        <dl>
          <Attention label="Without usable opening hours" testid="count-no-hours" {...a.withoutHours} link="hours" />
          <Attention
            label="Without coordinates (not on the map, never in a distance search)"
            testid="count-no-geo"
            {...a.withoutGeo}
            link="why"
          />
          <Attention label="Without a street address" testid="count-no-address" {...a.withoutAddress} link="why" />
        </dl>
      </section>
      <section aria-labelledby="counts-h" class="cards">
        <h2 id="counts-h">Locations</h2>
        <dl>
          <div>
            <dt>Public (searchable)</dt>
            <dd data-testid="count-public">{n(data.counts.public)}</dd>
          </div>
          <div>
            <dt>Private (never in an answer)</dt>
            <dd data-testid="count-private">{n(data.counts.private)}</dd>
          </div>
          <div>
            <dt>Kept in</dt>
            <dd class="small">{data.storage}</dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="import-h">
        <h2 id="import-h">Last import</h2>
        <LastImportSection last={data.lastImport} />
      </section>
      <section aria-labelledby="coverage-h">
        <h2 id="coverage-h">Where Locations deliver or serve</h2>
        <ul>
          <li>{n(data.coverage.radius)} with a delivery radius</li>
          <li>{n(data.coverage.areas)} with drawn coverage areas</li>
          <li>{n(data.coverage.none)} with neither</li>
          <li>Coverage by postal code in: {data.coverage.postalCountries.join(', ') || 'no country'}</li>
          <li>Coverage by region in: {data.coverage.regionCountries.join(', ') || 'no country'}</li>
        </ul>
      </section>
      <section aria-labelledby="inventory-h">
        <h2 id="inventory-h">Stock</h2>
        <p>
          {n(data.inventory.items)} different items are known; {n(data.inventory.availableRows)} times an item is in stock at a Location.
        </p>
      </section>
      <div class="tables">
        <TallyTable caption="Countries" first="Country" rows={data.countries} />
        <TallyTable caption="Time zones" first="Zone" rows={data.timezones} />
        <TallyTable caption="Amenities" first="Amenity" rows={data.amenities} />
      </div>
    </div>
  );
}
