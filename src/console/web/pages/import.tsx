/** Import: check a Location file completely, then replace the dataset with it, as `ucp-location import` does. */
import { useState } from 'preact/hooks';
import { api, type LastImportRecord, type PreviewReport } from '../api.js';
import { IssueTable } from '../issue-table.js';

/** The formats of `ucp-location import --format`, in the order the CLI lists them. */
const FORMATS = [
  ['', 'From the file name (.ndjson, .geojson, .csv, .jsonld)'],
  ['ndjson', 'NDJSON: one Location per line (ndjson)'],
  ['geojson', 'GeoJSON FeatureCollection of Locations (geojson)'],
  ['csv', 'CSV with the documented columns (csv)'],
  ['osm', 'OpenStreetMap GeoJSON export, e.g. from Overpass (osm)'],
  ['jsonld', 'schema.org JSON-LD: a document or a store page (jsonld)'],
  ['gbp', 'Google Business Profile bulk sheet, CSV (gbp)'],
] as const;

function FormatPicker({ format, onChange }: { format: string; onChange: (format: string) => void }) {
  return (
    <div class="field">
      <label for="import-format">Format</label>
      <select id="import-format" value={format} onChange={(e) => onChange(e.currentTarget.value)}>
        {FORMATS.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

function DropZone({ onFile }: { onFile: (f: File | null | undefined) => void }) {
  const [over, setOver] = useState(false);
  return (
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
        onFile(e.dataTransfer?.files[0]);
      }}
    >
      <label for="import-file">Location file</label>
      <input
        id="import-file"
        type="file"
        accept=".ndjson,.jsonl,.geojson,.json,.csv,.jsonld,.html,.htm"
        onChange={(e) => onFile(e.currentTarget.files?.[0])}
      />
      <p class="hint">…or drop it here.</p>
    </div>
  );
}

function ReportSection({ report, busy, onCommit }: { report: PreviewReport; busy: boolean; onCommit: () => void }) {
  return (
    <section aria-labelledby="report-h">
      <h2 id="report-h">Validation report for {report.file}</h2>
      <p data-testid="import-summary" class={report.ok ? 'ok' : 'bad'}>
        {report.ok
          ? `Valid: ${report.records} record(s), ${report.publicRecords} public, read as ${report.format ?? '?'}. Nothing has been written yet.`
          : `Rejected: ${report.issueCount} problem(s) in ${report.records} record(s), read as ${report.format ?? '?'}${report.formatFrom === 'extension' ? ' (from the file name)' : ''}. Nothing was written.`}
      </p>
      {report.hints.length > 0 && (
        <ul class="hints" data-testid="import-hints">
          {report.hints.map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ul>
      )}
      <IssueTable grouped={report.problems} caption="Problems, each once" testid="import-issues" />
      <IssueTable grouped={report.warnings} caption="Warnings (imported anyway)" testid="import-warnings" />
      {report.ok && (
        <button type="button" onClick={onCommit} disabled={busy}>
          Replace the dataset with {report.file}
        </button>
      )}
    </section>
  );
}

export function ImportPage() {
  const [format, setFormat] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<PreviewReport | null>(null);
  const [done, setDone] = useState<LastImportRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const preview = async (f: File | null | undefined, chosen = format) => {
    if (f === undefined || f === null) return;
    setFile(f);
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const query = `name=${encodeURIComponent(f.name)}${chosen !== '' ? `&format=${encodeURIComponent(chosen)}` : ''}`;
      setReport(await api<PreviewReport>(`/api/import/preview?${query}`, { body: f }));
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
      setDone(await api<LastImportRecord>('/api/import/commit', { json: { previewId: report.previewId } }));
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
        Choose or drop a Location file in any format <code>ucp-location import</code> reads. It is checked completely before anything is
        written; committing replaces the whole dataset in one transaction, exactly as the command does.
      </p>
      <FormatPicker
        format={format}
        onChange={(chosen) => {
          setFormat(chosen);
          // Changing the format checks the same file again.
          void preview(file, chosen);
        }}
      />
      <DropZone onFile={(f) => void preview(f)} />
      <div aria-live="polite">
        {busy && <p>Working…</p>}
        {error !== null && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {report !== null && <ReportSection report={report} busy={busy} onCommit={() => void commit()} />}
        {done !== null && (
          <p data-testid="import-done" class="ok">
            Imported {done.locations} Location(s) ({done.publicLocations} public)
            {done.warningCount > 0 ? ` with ${done.warningCount} warning(s); the overview lists them` : ''}.
          </p>
        )}
      </div>
    </div>
  );
}
