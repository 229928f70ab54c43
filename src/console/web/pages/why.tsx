/** "Why not matched": the playground's request explained for one Location, predicate by predicate. */
import { useEffect, useState } from 'preact/hooks';
import { TableHead } from '../table-head.js';
import { api, type ConsoleConfig, type Explanation } from '../api.js';
import { pointsOf, positionsOf, useMapLocations } from '../locations.js';
import { WorldMap } from '../map.js';
import { buildRequest, type Draft } from '../request.js';

const NAMES: Record<string, string> = {
  query: 'Text query',
  distance: 'Distance',
  'serves.point': 'Serves point',
  'serves.address': 'Serves address',
  hours: 'Open at',
  amenities: 'Amenities',
  items: 'Items',
};

function VerdictTable({ result }: { result: Explanation }) {
  return (
    <table data-testid="verdicts">
      <caption>Each predicate of the request, as the engine decides it</caption>
      <TableHead columns={['Predicate', 'Verdict', 'Why']} />
      <tbody>
        {result.verdicts.map((v) => (
          <tr key={v.predicate} data-predicate={v.predicate} data-pass={String(v.pass)}>
            <th scope="row">{NAMES[v.predicate] ?? v.predicate}</th>
            <td class={v.pass ? 'ok' : 'bad'}>{v.pass ? '✓ passes' : '✗ fails'}</td>
            <td>
              {v.why}
              {v.predicate === 'hours' && v.explanation.notes.length > 0 && (
                <ul>
                  {v.explanation.notes.map((n) => (
                    <li key={n}>{n}</li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function VerdictPanel({ result, error }: { result: Explanation | null; error: string | null }) {
  return (
    <section aria-labelledby="verdict-h" class="panel" aria-live="polite">
      <h2 id="verdict-h">Verdict</h2>
      {error !== null && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {result === null && error === null && <p>Pick a Location on the map or type its id.</p>}
      {result?.notFound !== undefined && <p data-testid="not-found">{result.notFound}</p>}
      {result !== null && result.id !== null && (
        <>
          <p data-testid="why-summary" class={result.matched ? 'ok' : 'bad'}>
            <strong>{result.name}</strong> (<code>{result.id}</code>) {result.matched ? 'is in the answer' : 'is not in the answer'}
            {result.verdicts.length === 0 ? ': the request has no predicate, every Location matches.' : '.'}
          </p>
          <VerdictTable result={result} />
        </>
      )}
    </section>
  );
}

interface IdFormProps {
  id: string;
  setId: (id: string) => void;
  ids: readonly string[];
  onExplain: (id: string) => void;
}

function IdForm({ id, setId, ids, onExplain }: IdFormProps) {
  return (
    <form
      class="row"
      onSubmit={(e) => {
        e.preventDefault();
        onExplain(id);
      }}
    >
      <div class="field">
        <label for="why-id">Location id or alias</label>
        <input id="why-id" list="why-ids" value={id} onInput={(e) => setId(e.currentTarget.value)} />
        <datalist id="why-ids">
          {ids.map((x) => (
            <option key={x} value={x} />
          ))}
        </datalist>
      </div>
      <button type="submit">Explain</button>
    </form>
  );
}

export function WhyPage({ config, draft, initialId }: { config: ConsoleConfig; draft: Draft; initialId: string }) {
  const { locations } = useMapLocations();
  const [id, setId] = useState(initialId);
  const [result, setResult] = useState<Explanation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const request = buildRequest(draft);
  delete request.pagination;

  const explain = async (which: string) => {
    setError(null);
    if (which.trim() === '') return;
    try {
      setResult(await api<Explanation>('/api/explain', { json: { request, id: which.trim() } }));
    } catch (e) {
      setResult(null);
      setError((e as Error).message);
    }
  };
  useEffect(() => {
    if (initialId !== '') void explain(initialId);
    // The request comes from the playground; ask again when the page is opened for another id.
  }, [initialId]);

  return (
    <div class="two">
      <div>
        <section aria-labelledby="wreq-h">
          <h2 id="wreq-h">Current request (from the playground)</h2>
          <pre data-testid="why-request" tabIndex={0}>
            {JSON.stringify(request, null, 2)}
          </pre>
        </section>
        <IdForm id={id} setId={setId} ids={locations?.slice(0, 2000).map((l) => l.id) ?? []} onExplain={(x) => void explain(x)} />
        <WorldMap
          label="Click a Location to explain it"
          points={locations === null ? [] : pointsOf(locations, (x) => (x === result?.id ? 'selected' : undefined))}
          tileUrl={config.tileUrl}
          onSelect={(x) => {
            setId(x);
            void explain(x);
          }}
          fit={{ key: locations === null ? 'none' : 'all', positions: locations === null ? [] : positionsOf(locations) }}
        />
      </div>
      <VerdictPanel result={result} error={error} />
    </div>
  );
}
