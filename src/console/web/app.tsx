/** The console's shell: landmarks, navigation by URL hash, and the state pages share (the request being built). */
import { useEffect, useState } from 'preact/hooks';
import { api, type ConsoleConfig } from './api.js';
import { EMPTY_DRAFT, emptyDraft, type Draft } from './request.js';
import { HoursPage } from './pages/hours.js';
import { ImportPage } from './pages/import.js';
import { MapPage } from './pages/map.js';
import { OverviewPage } from './pages/overview.js';
import { PlaygroundPage } from './pages/playground.js';
import { WhyPage } from './pages/why.js';
import { PAGES, parseHash } from './routes.js';

export function App() {
  const [route, setRoute] = useState(parseHash);
  const [config, setConfig] = useState<ConsoleConfig | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);

  useEffect(() => {
    const onHash = () => setRoute(parseHash());
    window.addEventListener('hashchange', onHash);
    api<ConsoleConfig>('/api/config').then(
      (c) => {
        setConfig(c);
        // The time picker starts in the zone most of the dataset is in, not UTC.
        setDraft((d) => (d === EMPTY_DRAFT ? emptyDraft(c.defaultZone) : d));
      },
      (e: Error) => setFailure(e.message),
    );
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    const title = PAGES.find((p) => p[0] === route.page)?.[1] ?? '';
    document.title = `${title} · UCP Location console`;
  }, [route.page]);

  let body;
  if (failure !== null) body = <p role="alert">The console could not load its settings: {failure}</p>;
  else if (config === null) body = <p aria-live="polite">Loading…</p>;
  else if (route.page === 'overview') body = <OverviewPage />;
  else if (route.page === 'map') body = <MapPage config={config} />;
  else if (route.page === 'playground') body = <PlaygroundPage config={config} draft={draft} setDraft={setDraft} />;
  else if (route.page === 'why') body = <WhyPage config={config} draft={draft} initialId={route.id} />;
  else if (route.page === 'hours') body = <HoursPage initialId={route.id} />;
  else body = <ImportPage />;

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="brand">UCP Location console</p>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map(([name, label]) => (
              <li key={name}>
                <a href={`#/${name}`} aria-current={route.page === name ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{PAGES.find((p) => p[0] === route.page)?.[1]}</h1>
        {body}
      </main>
    </>
  );
}
