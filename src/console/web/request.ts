/** The playground's form state and the exact UCP search request it stands for. */
import type { SearchRequest } from './api.js';

export interface Draft {
  query: string;
  distance: boolean;
  centerLat: string;
  centerLon: string;
  max: string;
  serves: 'none' | 'point' | 'address';
  pointLat: string;
  pointLon: string;
  addressCountry: string;
  addressRegion: string;
  postalCode: string;
  openAt: boolean;
  openLocal: string;
  openZone: string;
  /** The RFC 3339 instant the picker resolved (local + zone). */
  openInstant: string;
  amenities: string[];
  items: string;
  contextCountry: string;
  contextRegion: string;
  contextPostal: string;
  language: string;
  pageSize: string;
}

export const EMPTY_DRAFT: Draft = {
  query: '',
  distance: false,
  centerLat: '',
  centerLon: '',
  max: '5000',
  serves: 'none',
  pointLat: '',
  pointLon: '',
  addressCountry: '',
  addressRegion: '',
  postalCode: '',
  openAt: false,
  openLocal: '',
  openZone: 'UTC',
  openInstant: '',
  amenities: [],
  items: '',
  contextCountry: '',
  contextRegion: '',
  contextPostal: '',
  language: '',
  pageSize: '10',
};

function num(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** An empty form whose time picker starts in `zone` (the dataset's most common zone). */
export function emptyDraft(zone: string): Draft {
  return { ...EMPTY_DRAFT, openZone: zone };
}

/** The request exactly as it is sent; invalid numbers are sent as they are so the server names them. */
export function buildRequest(d: Draft, cursor?: string): SearchRequest {
  const r: SearchRequest = {};
  if (d.query.trim() !== '') r.query = d.query;
  if (d.distance) r.distance = { center: { latitude: num(d.centerLat), longitude: num(d.centerLon) }, max: num(d.max) };
  if (d.serves === 'point') r.serves = { point: { latitude: num(d.pointLat), longitude: num(d.pointLon) } };
  if (d.serves === 'address') {
    const address: Record<string, string> = {};
    if (d.addressCountry.trim() !== '') address['address_country'] = d.addressCountry.trim();
    if (d.addressRegion.trim() !== '') address['address_region'] = d.addressRegion.trim();
    if (d.postalCode.trim() !== '') address['postal_code'] = d.postalCode.trim();
    r.serves = { address };
  }
  const filters: NonNullable<SearchRequest['filters']> = {};
  if (d.openAt && d.openInstant !== '') filters.hours = { open_at: d.openInstant };
  if (d.amenities.length > 0) filters.amenities = [...d.amenities];
  const items = d.items
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length > 0) filters.items = items;
  if (Object.keys(filters).length > 0) r.filters = filters;
  const context: Record<string, string> = {};
  if (d.contextCountry.trim() !== '') context['address_country'] = d.contextCountry.trim();
  if (d.contextRegion.trim() !== '') context['address_region'] = d.contextRegion.trim();
  if (d.contextPostal.trim() !== '') context['postal_code'] = d.contextPostal.trim();
  if (d.language.trim() !== '') context['language'] = d.language.trim();
  if (Object.keys(context).length > 0) r.context = context;
  const pagination: NonNullable<SearchRequest['pagination']> = {};
  if (d.pageSize.trim() !== '') pagination.limit = num(d.pageSize);
  if (cursor !== undefined) pagination.cursor = cursor;
  if (Object.keys(pagination).length > 0) r.pagination = pagination;
  return r;
}
