/** The playground: build a UCP search request, see it as JSON, run it and see the answer on the map. */
import { useState } from 'preact/hooks';
import { api, ApiError, type ConsoleConfig, type LocalInstant, type MapLocation, type SearchAnswer } from '../api.js';
import { go } from '../routes.js';
import { pointsOf, positionsOf, useMapLocations } from '../locations.js';
import { WorldMap, type MapMarker, type MapShape } from '../map.js';
import { buildRequest, emptyDraft, type Draft } from '../request.js';
import { AnswerSection } from './playground-answer.js';
import { RequestForm } from './playground-form.js';

interface Props {
  config: ConsoleConfig;
  draft: Draft;
  setDraft: (d: Draft) => void;
}

type PickTarget = 'distance' | 'point';

/** The pins of the draft's centre and point, the answer's circle, and what the map frames. */
function mapDecor(draft: Draft, answer: SearchAnswer | null, page: number, locations: MapLocation[] | null) {
  const shapes: MapShape[] = answer?.circle ? [{ kind: 'search', rings: [[answer.circle]] }] : [];
  const markers: MapMarker[] = [];
  if (draft.distance && draft.centerLat !== '' && draft.centerLon !== '')
    markers.push({ lat: Number(draft.centerLat), lon: Number(draft.centerLon), label: 'distance centre' });
  if (draft.serves === 'point' && draft.pointLat !== '' && draft.pointLon !== '')
    markers.push({ lat: Number(draft.pointLat), lon: Number(draft.pointLon), label: 'serves point' });
  // After a search, frame its results and circle; before, the whole dataset.
  const resultPositions = (answer?.response.locations ?? []).flatMap((l): [number, number][] =>
    l.geo === undefined ? [] : [[l.geo.longitude, l.geo.latitude]],
  );
  const fit =
    answer !== null && (resultPositions.length > 0 || answer.circle !== null)
      ? { key: `answer:${page}:${resultPositions.join(';')}`, positions: [...resultPositions, ...(answer.circle ?? [])] }
      : { key: locations === null ? 'none' : 'all', positions: locations === null ? [] : positionsOf(locations) };
  return { shapes, markers, fit };
}

function PickChooser({ pickFor, setPickFor }: { pickFor: PickTarget; setPickFor: (p: PickTarget) => void }) {
  return (
    <fieldset class="pick">
      <legend>Clicking the map sets</legend>
      <label class="inline">
        <input type="radio" name="pick" checked={pickFor === 'distance'} onChange={() => setPickFor('distance')} /> the distance centre
      </label>
      <label class="inline">
        <input type="radio" name="pick" checked={pickFor === 'point'} onChange={() => setPickFor('point')} /> the serves point
      </label>
    </fieldset>
  );
}

export function PlaygroundPage({ config, draft, setDraft }: Props) {
  const { locations } = useMapLocations();
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pickFor, setPickFor] = useState<PickTarget>('distance');
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

  const results = new Set(answer?.response.locations.map((l) => l.id) ?? []);
  const { shapes, markers, fit } = mapDecor(draft, answer, page, locations);
  const reset = () => {
    setDraft(emptyDraft(config.defaultZone));
    setAnswer(null);
    setError(null);
  };

  return (
    <div class="playground">
      <RequestForm
        config={config}
        draft={draft}
        set={set}
        resolveInstant={(local, zone) => void resolveInstant(local, zone)}
        instantNote={instantNote}
        onSearch={() => void run()}
        onReset={reset}
      />
      <div class="output">
        <PickChooser pickFor={pickFor} setPickFor={setPickFor} />
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
            {JSON.stringify(buildRequest(draft), null, 2)}
          </pre>
        </section>
        <AnswerSection answer={answer} error={error} page={page} onNextPage={(cursor) => void run(cursor)} />
      </div>
    </div>
  );
}
