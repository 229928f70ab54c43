import { useEffect, useState } from 'preact/hooks';
import { api, type Overview } from '../api.js';

function TallyTable({ caption, rows, first }: { caption: string; rows: { key: string; count: number }[]; first: string }) {
  const shown = rows.slice(0, 12);
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{first}</th>
          <th scope="col">Locations</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((r) => (
          <tr key={r.key}>
            <td>{r.key}</td>
            <td class="num">{r.count.toLocaleString('en-US')}</td>
          </tr>
        ))}
        {rows.length > shown.length && (
          <tr>
            <td colSpan={2}>… and {rows.length - shown.length} more</td>
          </tr>
        )}
      </tbody>
    </table>
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
  const last = data.lastImport;
  return (
    <div class="overview">
      <section aria-labelledby="counts-h" class="cards">
        <h2 id="counts-h">Locations</h2>
        <dl>
          <div>
            <dt>Public</dt>
            <dd data-testid="count-public">{data.counts.public.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>Private (never in an answer)</dt>
            <dd data-testid="count-private">{data.counts.private.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>Without coordinates</dt>
            <dd>{data.counts.withoutGeo.toLocaleString('en-US')}</dd>
          </div>
          <div>
            <dt>Store</dt>
            <dd>
              {data.store}, generation {data.stats.generation}
            </dd>
          </div>
        </dl>
      </section>
      <section aria-labelledby="coverage-h">
        <h2 id="coverage-h">Coverage kinds (public Locations)</h2>
        <ul>
          <li>{data.coverage.radius} with a delivery radius</li>
          <li>{data.coverage.areas} with coverage areas (polygons)</li>
          <li>{data.coverage.none} with no radius or area</li>
          <li>Postal-code coverage in: {data.coverage.postalCountries.join(', ') || 'none'}</li>
          <li>Region coverage in: {data.coverage.regionCountries.join(', ') || 'none'}</li>
        </ul>
      </section>
      <section aria-labelledby="inventory-h">
        <h2 id="inventory-h">Inventory</h2>
        <p>
          {data.inventory.items.toLocaleString('en-US')} item(s) known, {data.inventory.availableRows.toLocaleString('en-US')} available
          (Location, item) pair(s). The store is at generation {data.inventory.generation}: every import or inventory feed moves it on, so
          an unchanged number means no feed has landed since.
        </p>
      </section>
      <section aria-labelledby="import-h">
        <h2 id="import-h">Last import</h2>
        {last === null ? (
          <p>No import from this console since it started; the data is what the store holds (generation {data.stats.generation}).</p>
        ) : (
          <p>
            {last.at}: {last.locations} Location(s) ({last.publicLocations} public) from{' '}
            {last.files.map((f) => `${f.file} (${f.format})`).join(', ')}, {last.availability} availability row(s), generation{' '}
            {last.generation}.
          </p>
        )}
      </section>
      <div class="tables">
        <TallyTable caption="Countries" first="Country" rows={data.countries} />
        <TallyTable caption="Time zones" first="Zone" rows={data.timezones} />
        <TallyTable caption="Amenities" first="Amenity" rows={data.amenities} />
      </div>
    </div>
  );
}
