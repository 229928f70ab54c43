/**
 * A hand-written SVG chart: p50 latency (log scale) against dataset size (log scale), one line
 * per contender, one panel per query kind. No dependencies; readable in any browser or on GitHub.
 */

export interface Series {
  contender: string;
  /** (size, p50 ms) points; sizes ascending. */
  points: { size: number; ms: number }[];
}

export interface Panel {
  title: string;
  series: Series[];
}

const COLORS: Readonly<Record<string, string>> = {
  'engine-sqlite': '#1f77b4',
  'engine-postgres': '#17becf',
  naive: '#d62728',
  floor: '#2ca02c',
  postgis: '#9467bd',
};
const FALLBACK_COLORS = ['#ff7f0e', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22'];

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** 10000 → "10k", 1000000 → "1M". */
export function sizeLabel(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}

function msLabel(ms: number): string {
  if (ms >= 1000) return `${ms / 1000} s`;
  if (ms >= 1) return `${ms} ms`;
  return `${Math.round(ms * 1000)} µs`;
}

function colorOf(name: string, index: number): string {
  return COLORS[name] ?? FALLBACK_COLORS[index % FALLBACK_COLORS.length] ?? '#000';
}

/** Powers of ten covering [lo, hi]. */
function decades(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) out.push(10 ** e);
  return out;
}

function panelSvg(
  panel: Panel,
  x0: number,
  y0: number,
  w: number,
  h: number,
  sizes: readonly number[],
  contenders: readonly string[],
): string {
  const all = panel.series.flatMap((s) => s.points.map((p) => p.ms)).filter((v) => v > 0 && Number.isFinite(v));
  const parts: string[] = [];
  const left = x0 + 58;
  const right = x0 + w - 12;
  const top = y0 + 28;
  const bottom = y0 + h - 34;
  parts.push(`<text x="${x0 + w / 2}" y="${y0 + 16}" text-anchor="middle" font-size="13" font-weight="bold">${escape(panel.title)}</text>`);
  parts.push(`<rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}" fill="none" stroke="#999"/>`);
  if (all.length === 0 || sizes.length === 0) {
    parts.push(`<text x="${(left + right) / 2}" y="${(top + bottom) / 2}" text-anchor="middle" font-size="12" fill="#666">no data</text>`);
    return parts.join('\n');
  }
  const yTicks = decades(Math.min(...all), Math.max(...all));
  const yMin = Math.log10(yTicks[0] as number);
  const yMax = Math.log10(yTicks[yTicks.length - 1] as number);
  const xMin = Math.log10(Math.min(...sizes));
  const xMax = Math.log10(Math.max(...sizes));
  const xOf = (size: number): number =>
    xMax === xMin ? (left + right) / 2 : left + ((Math.log10(size) - xMin) / (xMax - xMin)) * (right - left);
  const yOf = (ms: number): number =>
    yMax === yMin ? (top + bottom) / 2 : bottom - ((Math.log10(ms) - yMin) / (yMax - yMin)) * (bottom - top);
  for (const t of yTicks) {
    const y = yOf(t);
    parts.push(`<line x1="${left}" y1="${y}" x2="${right}" y2="${y}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end" font-size="10">${msLabel(t)}</text>`);
  }
  for (const s of sizes) {
    const x = xOf(s);
    parts.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="#f0f0f0"/>`);
    parts.push(`<text x="${x}" y="${bottom + 14}" text-anchor="middle" font-size="10">${sizeLabel(s)}</text>`);
  }
  parts.push(`<text x="${(left + right) / 2}" y="${bottom + 28}" text-anchor="middle" font-size="10" fill="#444">locations</text>`);
  for (const series of panel.series) {
    const color = colorOf(series.contender, contenders.indexOf(series.contender));
    const pts = series.points.filter((p) => p.ms > 0 && Number.isFinite(p.ms));
    if (pts.length > 1) {
      parts.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.map((p) => `${xOf(p.size).toFixed(1)},${yOf(p.ms).toFixed(1)}`).join(' ')}"/>`,
      );
    }
    for (const p of pts) {
      parts.push(
        `<circle cx="${xOf(p.size).toFixed(1)}" cy="${yOf(p.ms).toFixed(1)}" r="3" fill="${color}"><title>${escape(`${series.contender} @ ${sizeLabel(p.size)}: p50 ${p.ms.toPrecision(3)} ms`)}</title></circle>`,
      );
    }
  }
  return parts.join('\n');
}

/** The whole chart: panels in a grid of two columns, a shared legend on top. */
export function latencyChart(title: string, panels: readonly Panel[], sizes: readonly number[]): string {
  const contenders = [...new Set(panels.flatMap((p) => p.series.map((s) => s.contender)))];
  const cols = 2;
  const pw = 420;
  const ph = 280;
  const legendH = 44;
  const rows = Math.ceil(panels.length / cols);
  const width = cols * pw;
  const height = legendH + rows * ph + 10;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="18" text-anchor="middle" font-size="15" font-weight="bold">${escape(title)}</text>`,
  ];
  contenders.forEach((c, i) => {
    const x = 20 + i * 160;
    parts.push(`<line x1="${x}" y1="34" x2="${x + 22}" y2="34" stroke="${colorOf(c, i)}" stroke-width="3"/>`);
    parts.push(`<text x="${x + 28}" y="38" font-size="12">${escape(c)}</text>`);
  });
  panels.forEach((panel, i) => {
    parts.push(panelSvg(panel, (i % cols) * pw, legendH + Math.floor(i / cols) * ph, pw, ph, sizes, contenders));
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
