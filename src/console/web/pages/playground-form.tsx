/** The playground's request form: one fieldset per request member, editing the shared draft. */
import type { ConsoleConfig } from '../api.js';
import type { Draft } from '../request.js';
import { Field } from './field.js';

/** What every fieldset gets: the draft and a way to change part of it. */
interface DraftProps {
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
}

function DistanceFieldset({ draft, set, maxRadiusMeters }: DraftProps & { maxRadiusMeters: number }) {
  return (
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
        hint={`at most ${maxRadiusMeters} m`}
      />
    </fieldset>
  );
}

function ServesFieldset({ draft, set }: DraftProps) {
  return (
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
  );
}

interface OpenAtProps extends DraftProps {
  zones: string[];
  /** Resolves a local date-time in a zone to the instant sent (the server does the zone arithmetic). */
  resolveInstant: (local: string, zone: string) => void;
  instantNote: string | null;
}

function OpenAtFieldset({ draft, set, zones, resolveInstant, instantNote }: OpenAtProps) {
  return (
    <fieldset>
      <legend>Open at</legend>
      <label class="inline">
        <input type="checkbox" checked={draft.openAt} onChange={(e) => set({ openAt: e.currentTarget.checked })} /> Only Locations open at
      </label>
      <div class="row">
        <Field
          id="olocal"
          label="Local date and time"
          type="datetime-local"
          value={draft.openLocal}
          onInput={(v) => resolveInstant(v, draft.openZone)}
        />
        <div class="field">
          <label for="ozone">Time zone</label>
          <select id="ozone" value={draft.openZone} onChange={(e) => resolveInstant(draft.openLocal, e.currentTarget.value)}>
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
  );
}

function AmenitiesFieldset({ draft, set, config }: DraftProps & { config: ConsoleConfig }) {
  return (
    <fieldset class="amenities">
      <legend>Amenities (all required)</legend>
      {config.amenities.length === 0 && <p>No amenity in the dataset.</p>}
      {config.amenities.map((a, i) => (
        <div class="check" key={a}>
          <input
            type="checkbox"
            id={`am-${i}`}
            checked={draft.amenities.includes(a)}
            onChange={(e) => set({ amenities: e.currentTarget.checked ? [...draft.amenities, a] : draft.amenities.filter((x) => x !== a) })}
          />
          <label for={`am-${i}`}>
            {config.amenityText[a] ?? a} <code>{a}</code>
          </label>
        </div>
      ))}
    </fieldset>
  );
}

function ContextFieldset({ draft, set }: DraftProps) {
  return (
    <fieldset>
      <legend>Context (orders results, never filters)</legend>
      <div class="row">
        <Field id="ccountry" label="Buyer country" value={draft.contextCountry} onInput={(v) => set({ contextCountry: v })} />
        <Field id="cregion" label="Buyer region" value={draft.contextRegion} onInput={(v) => set({ contextRegion: v })} />
        <Field id="cpostal" label="Buyer postal code" value={draft.contextPostal} onInput={(v) => set({ contextPostal: v })} />
      </div>
      <Field id="lang" label="Language (BCP 47)" value={draft.language} onInput={(v) => set({ language: v })} />
    </fieldset>
  );
}

interface FormProps extends Omit<OpenAtProps, 'zones'> {
  config: ConsoleConfig;
  onSearch: () => void;
  onReset: () => void;
}

export function RequestForm(props: FormProps) {
  const { config, draft, set } = props;
  const zones = ['UTC', ...config.timezones.filter((z) => z !== 'UTC')];
  return (
    <form
      class="panel"
      aria-labelledby="form-h"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch();
      }}
    >
      <h2 id="form-h">Request</h2>
      <Field id="q" label="Query (free text)" value={draft.query} onInput={(v) => set({ query: v })} />
      <DistanceFieldset draft={draft} set={set} maxRadiusMeters={config.limits.maxRadiusMeters} />
      <ServesFieldset draft={draft} set={set} />
      <OpenAtFieldset draft={draft} set={set} zones={zones} resolveInstant={props.resolveInstant} instantNote={props.instantNote} />
      <AmenitiesFieldset draft={draft} set={set} config={config} />
      <Field id="items" label="Items (comma-separated ids, all required)" value={draft.items} onInput={(v) => set({ items: v })} />
      <ContextFieldset draft={draft} set={set} />
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
        <button type="button" class="secondary" onClick={props.onReset}>
          Reset
        </button>
      </div>
    </form>
  );
}
