/**
 * Hosting rules for published profiles (R-D5): what a conformance check or a
 * `doctor` command reports about how a profile is served. Pure: it judges a
 * response someone else fetched (e.g. `SafeFetcher.fetchDocument`).
 *
 * Levels follow the overview's keywords: https, no redirect and the
 * Cache-Control rules are MUST; a validator (`ETag` / `Last-Modified`) is SHOULD
 * there, and our SPEC (R-D5) lists it too, so it is reported as `should`.
 */
import { parseCacheControl } from './fetch-cache.js';

export type HostingRule =
  | 'https'
  | 'no-redirect'
  | 'cache-control-present'
  | 'cache-control-public'
  | 'cache-control-max-age'
  | 'cache-control-forbidden-directive'
  | 'validator';

export interface HostingProblem {
  rule: HostingRule;
  level: 'must' | 'should';
  /** What is wrong and how to fix it, for people. */
  message: string;
}

export interface HostedResponse {
  /** The URL that was fetched. */
  url: string;
  /** HTTP status received. */
  status: number;
  /** Response headers, lower-case names (as Node and undici deliver them). */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** Smallest `max-age` a profile may be served with, seconds. */
export const MIN_PROFILE_MAX_AGE_SECONDS = 60;

/** Every R-D5 problem with how this response was served; empty when it conforms. */
export function checkProfileHosting(response: HostedResponse): HostingProblem[] {
  const problems: HostingProblem[] = [];
  const must = (rule: HostingRule, message: string): void => void problems.push({ rule, level: 'must', message });

  if (!response.url.toLowerCase().startsWith('https://')) {
    must('https', `Profile is served from ${response.url}; publish it over https.`);
  }
  if (response.status >= 300 && response.status < 400) {
    must('no-redirect', `Profile URL answers ${response.status} (redirect); serve the profile directly at the advertised URL.`);
  }

  const raw = response.headers['cache-control'];
  if (raw === undefined || (typeof raw === 'string' ? raw.trim() === '' : raw.length === 0)) {
    must(
      'cache-control-present',
      `No Cache-Control header; send "Cache-Control: public, max-age=${MIN_PROFILE_MAX_AGE_SECONDS}" or longer.`,
    );
  } else {
    const cc = parseCacheControl(raw);
    if (!cc.directives.has('public'))
      must('cache-control-public', 'Cache-Control lacks "public"; profiles must be cacheable by shared caches.');
    if (cc.maxAge === undefined) {
      must('cache-control-max-age', `Cache-Control has no valid max-age; send max-age=${MIN_PROFILE_MAX_AGE_SECONDS} or longer.`);
    } else if (cc.maxAge < MIN_PROFILE_MAX_AGE_SECONDS) {
      must(
        'cache-control-max-age',
        `Cache-Control max-age=${cc.maxAge} is below ${MIN_PROFILE_MAX_AGE_SECONDS} s; raise it to at least ${MIN_PROFILE_MAX_AGE_SECONDS}.`,
      );
    }
    for (const directive of ['private', 'no-store', 'no-cache'] as const) {
      if (cc.directives.has(directive)) {
        must(
          'cache-control-forbidden-directive',
          `Cache-Control contains "${directive}", which profiles must not be served with; remove it.`,
        );
      }
    }
  }

  const etag = response.headers['etag'];
  const lastModified = response.headers['last-modified'];
  if (!present(etag) && !present(lastModified)) {
    problems.push({
      rule: 'validator',
      level: 'should',
      message: 'Neither ETag nor Last-Modified is sent; add one so caches can revalidate cheaply (304).',
    });
  }
  return problems;
}

function present(value: string | readonly string[] | undefined): boolean {
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value.length > 0;
}
