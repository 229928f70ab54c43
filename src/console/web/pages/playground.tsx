import { useState } from 'preact/hooks';
import { api, ApiError, type ConsoleConfig, type LocalInstant, type SearchAnswer } from '../api.js';
import { go } from '../routes.js';
import { pointsOf, positionsOf, useMapLocations } from '../locations.js';
import { WorldMap, type MapMarker, type MapShape } from '../map.js';
import { buildRequest, emptyDraft, type Draft } from '../request.js';

interface Props {
  config: ConsoleConfig;
  draft: Draft;
  setDraft: (d: Draft) => void;
}

function Field(props: {
  id: string;
  label: string;
  value: string;
  onInput: (v: string) => void;
  type?: string;
  hint?: string;
  list?: string;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        value={props.value}
        list={props.list}
        aria-describedby={props.hint !== undefined ? `${props.id}-hint` : undefined}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      {props.hint !== undefined && (
        <small id={`${props.id}-hint`} class="hint">
          {props.hint}
        </small>
      )}
    </div>
  );
}

export function PlaygroundPage({ config, draft, setDraft }: Props) {
  const { locations } = useMapLocations();
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pickFor, setPickFor] = useState<'distance' | 'point'>('distance');
  const [instantNote, setInstantNote] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const resolveInstant = async (local: string, zone: string) => {
    set({ openLocal: local, openZone: zone });
    if (local === '') return;
    try {
      const r = await api<LocalInstant>(`/api/instant?local=${encodeURIComponent(local.slice(0, 16))}&zone=${encodeURIComponent(zone)}`);
      setDraft({ ...draft, openLocal: local, openZone: zone, openInstant: r.instant, openAt: true });
      setInstantNote(r.note);
    } catch (e) {
      setInstantNote((e as Error).message);
    }
  };

  const run = async (cursor?: string) => {
    setError(null);
    try {
      const r = await api<SearchAnswer>('/api/search', { json: { request: buildRequest(draft, cursor) } });
      setAnswer(r);
      setPage(cursor === undefined ? 1 : page + 1);
    } catch (e) {
      setAnswer(null);
      setError(e instanceof ApiError && e.pointer ? `${e.message} (at ${e.pointer})` : (e as Error).message);
    }
  };

  const request = buildRequest(draft);
  const results = new Set(answer?.response.locations.map((l) => l.id) ?? []);
  const shapes: MapShape[] = answer?.circle ? [{ kind: 'search', rings: [[answer.circle]] }] : [];
  const markers: MapMarker[] = [];
  if (draft.distance && draft.centerLat !== '' && draft.centerLon !== '')
    markers.push({ lat: Number(draft.centerLat), lon: Number(draft.centerLon), label: 'distance centre' });
  if (draft.serves === 'point' && draft.pointLat !== '' && draft.pointLon !== '')
    markers.push({ lat: Number(draft.pointLat), lon: Number(draft.pointLon), label: 'serves point' });
  // After a search, frame its results and circle; before, the whole dataset.
  const resultPositions = (answer?.response.locations ?? []).flatMap((l) =>
    l.geo === undefined ? [] : [[l.geo.longitude, l.geo.latitude] as [number, number]],
  );
  const fit =
    answer !== null && (resultPositions.length > 0 || answer.circle !== null)
      ? { key: `answer:${page}:${resultPositions.join(';')}`, positions: [...resultPositions, ...(answer.circle ?? [])] }
      : { key: locations === null ? 'none' : 'all', positions: locations === null ? [] : positionsOf(locations) };
  const zones = ['UTC', ...config.timezones.filter((z) => z !== 'UTC')];

  return (
    <div class="playground">
      <form
        class="panel"
        aria-labelledby="form-h"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <h2 id="form-h">Request</h2>
        <Field id="q" label="Query (free text)" value={draft.query} onInput={(v) => set({ query: v })} />
        <fieldset>
          <legend>Distance</legend>
          <label class="inline">
            <input type="checkbox" checked={draft.distance} onChange={(e) => set({ distance: e.currentTarget.checked })} /> Within a radius
          </label>
          <div class="row">
            <Field id="clat" label="Centre latitude" value={draft.centerLat} onInput={(v) => set({ centerLat: v, distance: true })} />
            <Field id="clon" label="Centre longitude" value={draft.centerLon} onInput={(v) => set({ centerLon: v, distance: true })} />
          </div>
          <Field
            id="max"
            label="Max distance (metres)"
            type="number"
            value={draft.max}
            onInput={(v) => set({ max: v })}
            hint={`at most ${config.limits.maxRadiusMeters} m`}
          />
        </fieldset>
        <fieldset>
          <legend>Serves</legend>
          {(['none', 'point', 'address'] as const).map((k) => (
            <label class="inline" key={k}>
              <input type="radio" name="serves" value={k} checked={draft.serves === k} onChange={() => set({ serves: k })} />{' '}
              {k === 'none' ? 'No serves' : k === 'point' ? 'A point' : 'An address'}
            </label>
          ))}
          {draft.serves === 'point' && (
            <div class="row">
              <Field id="plat" label="Point latitude" value={draft.pointLat} onInput={(v) => set({ pointLat: v })} />
              <Field id="plon" label="Point longitude" value={draft.pointLon} onInput={(v) => set({ pointLon: v })} />
            </div>
          )}
          {draft.serves === 'address' && (
            <div class="row">
              <Field id="acountry" label="Country" value={draft.addressCountry} onInput={(v) => set({ addressCountry: v })} />
              <Field id="aregion" label="Region" value={draft.addressRegion} onInput={(v) => set({ addressRegion: v })} />
              <Field id="apostal" label="Postal code" value={draft.postalCode} onInput={(v) => set({ postalCode: v })} />
            </div>
          )}
        </fieldset>
        <fieldset>
          <legend>Open at</legend>
          <label class="inline">
            <input type="checkbox" checked={draft.openAt} onChange={(e) => set({ openAt: e.currentTarget.checked })} /> Only Locations open
            at
          </label>
          <div class="row">
            <Field
              id="olocal"
              label="Local date and time"
              type="datetime-local"
              value={draft.openLocal}
              onInput={(v) => void resolveInstant(v, draft.openZone)}
            />
            <div class="field">
              <label for="ozone">Time zone</label>
              <select id="ozone" value={draft.openZone} onChange={(e) => void resolveInstant(draft.openLocal, e.currentTarget.value)}>
                {zones.map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p class="hint" aria-live="polite">
            {draft.openInstant !== '' ? `Sent as ${draft.openInstant}. ` : ''}
            {instantNote ?? ''}
          </p>
        </fieldset>
        <fieldset class="amenities">
          <legend>Amenities (all required)</legend>
          {config.amenities.length === 0 && <p>No amenity in the dataset.</p>}
          {config.amenities.map((a, i) => (
            <div class="check" key={a}>
              <input
                type="checkbox"
                id={`am-${i}`}
                checked={draft.amenities.includes(a)}
                onChange={(e) =>
                  set({ amenities: e.currentTarget.checked ? [...draft.amenities, a] : draft.amenities.filter((x) => x !== a) })
                }
              />
              <label for={`am-${i}`}>
                {config.amenityText[a] ?? a} <code>{a}</code>
              </label>
            </div>
          ))}
        </fieldset>
        <Field id="items" label="Items (comma-separated ids, all required)" value={draft.items} onInput={(v) => set({ items: v })} />
        <fieldset>
          <legend>Context (orders results, never filters)</legend>
          <div class="row">
            <Field id="ccountry" label="Buyer country" value={draft.contextCountry} onInput={(v) => set({ contextCountry: v })} />
            <Field id="cregion" label="Buyer region" value={draft.contextRegion} onInput={(v) => set({ contextRegion: v })} />
            <Field id="cpostal" label="Buyer postal code" value={draft.contextPostal} onInput={(v) => set({ contextPostal: v })} />
          </div>
          <Field id="lang" label="Language (BCP 47)" value={draft.language} onInput={(v) => set({ language: v })} />
        </fieldset>
        <Field
          id="size"
          label="Page size"
          type="number"
          value={draft.pageSize}
          onInput={(v) => set({ pageSize: v })}
          hint={`default ${config.limits.defaultPageSize}, at most ${config.limits.maxPageSize}`}
        />
        <div class="buttons">
          <button type="submit">Search</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setDraft(emptyDraft(config.defaultZone));
              setAnswer(null);
              setError(null);
            }}
          >
            Reset
          </button>
        </div>
      </form>
      <div class="output">
        <fieldset class="pick">
          <legend>Clicking the map sets</legend>
          <label class="inline">
            <input type="radio" name="pick" checked={pickFor === 'distance'} onChange={() => setPickFor('distance')} /> the distance centre
          </label>
          <label class="inline">
            <input type="radio" name="pick" checked={pickFor === 'point'} onChange={() => setPickFor('point')} /> the serves point
          </label>
        </fieldset>
        <WorldMap
          label="Search map: results are highlighted"
          points={locations === null ? [] : pointsOf(locations, (id) => (results.has(id) ? 'result' : 'muted'))}
          shapes={shapes}
          markers={markers}
          tileUrl={config.tileUrl}
          onPick={(lat, lon) =>
            pickFor === 'distance'
              ? set({ distance: true, centerLat: String(lat), centerLon: String(lon) })
              : set({ serves: 'point', pointLat: String(lat), pointLon: String(lon) })
          }
          onSelect={(id) => go('why', id)}
          fit={fit}
        />
        <section aria-labelledby="req-h">
          <h2 id="req-h">The UCP request</h2>
          <pre data-testid="request-json" tabIndex={0}>
            {JSON.stringify(request, null, 2)}
          </pre>
        </section>
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
                {answer.response.locations.map((l, i) => {
                  const row = answer.rows[i];
                  return (
                    <li key={l.id} data-id={l.id}>
                      <strong>{l.name}</strong> <code>{l.id}</code>
                      <br />
                      {row !== undefined && row.distance !== null && <span data-testid="result-distance">{row.distance} · </span>}
                      {row !== undefined && (
                        <span data-testid="result-hours" class={`state ${row.hours.state}`}>
                          {row.hours.text}
                          {row.hours.state !== 'unknown' && row.hours.timezone !== null ? ` (${row.hours.timezone})` : ''}
                        </span>
                      )}{' '}
                      · <a href={`#/why?id=${encodeURIComponent(l.id)}`}>why</a> ·{' '}
                      <a href={`#/hours?id=${encodeURIComponent(l.id)}`}>hours</a>
                    </li>
                  );
                })}
              </ol>
              {(answer.response.messages ?? []).map((m, i) => (
                <p key={i} class="message">
                  {m.type} {m.code}: {m.content}
                </p>
              ))}
              {answer.response.pagination.has_next_page && answer.response.pagination.cursor !== undefined && (
                <button type="button" onClick={() => void run(answer.response.pagination.cursor)}>
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
      </div>
    </div>
  );
}
