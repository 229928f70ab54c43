import { useState } from 'preact/hooks';
import { TableHead } from '../table-head.js';
import { api, type LastImport, type PreviewReport } from '../api.js';

export function ImportPage() {
  const [report, setReport] = useState<PreviewReport | null>(null);
  const [done, setDone] = useState<LastImport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);

  const preview = async (file: File | undefined) => {
    if (file === undefined) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setReport(await api<PreviewReport>(`/api/import/preview?name=${encodeURIComponent(file.name)}`, { body: file }));
    } catch (e) {
      setReport(null);
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const commit = async () => {
    if (report?.previewId === undefined) return;
    setBusy(true);
    try {
      setDone(await api<LastImport>('/api/import/commit', { json: { previewId: report.previewId } }));
      setReport(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <p>
        Choose or drop a Location file (NDJSON, GeoJSON or CSV; the extension names the format). It is checked completely before anything is
        written; committing replaces the whole dataset in one transaction, exactly as <code>ucp-location import</code> does.
      </p>
      <div
        class={`drop ${over ? 'over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          void preview(e.dataTransfer?.files[0]);
        }}
      >
        <label for="import-file">Location file</label>
        <input
          id="import-file"
          type="file"
          accept=".ndjson,.jsonl,.geojson,.json,.csv"
          onChange={(e) => void preview(e.currentTarget.files?.[0])}
        />
        <p class="hint">…or drop it here.</p>
      </div>
      <div aria-live="polite">
        {busy && <p>Working…</p>}
        {error !== null && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {report !== null && (
          <section aria-labelledby="report-h">
            <h2 id="report-h">Validation report for {report.file}</h2>
            <p data-testid="import-summary" class={report.ok ? 'ok' : 'bad'}>
              {report.ok
                ? `Valid: ${report.records} record(s), ${report.publicRecords} public (${report.format}). Nothing has been written yet.`
                : `Rejected: ${report.issueCount} problem(s) in ${report.records} record(s). Nothing was written.`}
            </p>
            {report.issues.length > 0 && (
              <table data-testid="import-issues">
                <caption>Problems (file:line field: message)</caption>
                <TableHead columns={['Where', 'Field', 'Problem']} />
                <tbody>
                  {report.issues.slice(0, 200).map((i, n) => (
                    <tr key={n}>
                      <td>
                        <code>{i.unit === 'feature' ? `${i.file} feature ${i.line}` : `${i.file}:${i.line}`}</code>
                      </td>
                      <td>
                        <code>{i.field}</code>
                      </td>
                      <td>{i.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {report.ok && (
              <button type="button" onClick={() => void commit()} disabled={busy}>
                Replace the dataset with {report.file}
              </button>
            )}
          </section>
        )}
        {done !== null && (
          <p data-testid="import-done" class="ok">
            Imported {done.locations} Location(s) ({done.publicLocations} public); the store is now at generation {done.generation}.
          </p>
        )}
      </div>
    </div>
  );
}
