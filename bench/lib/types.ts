/**
 * Shared shapes of the harness: query instances, what a contender returns, and the contender
 * interface every system under test implements.
 */
import type { LookupRequest, SearchRequest } from '../../src/domain/requests.js';

/** One concrete request of a query kind. `pages` > 1 walks that many pages with cursors. */
export type Instance = { op: 'search'; request: SearchRequest; pages: number } | { op: 'lookup'; request: LookupRequest };

/** A search answer reduced to what is compared: ids in result order and total_count. */
export interface SearchOutput {
  type: 'search';
  /** Ids of every page fetched, concatenated in order. */
  ids: string[];
  /** total_count of the first page, when the contender reports one. */
  total?: number;
}

/** A lookup answer: each returned Location with the request ids that reached it. */
export interface LookupOutput {
  type: 'lookup';
  entries: { id: string; inputs: string[] }[];
}

/**
 * A spatial candidate set (the floor): indexes into `ids`; must be a superset of the engine's
 * result, and filtering it exactly must give the engine's result.
 */
export interface CandidateOutput {
  type: 'candidates';
  indexes: readonly number[];
  ids: readonly string[];
}

export type Output = SearchOutput | LookupOutput | CandidateOutput;

/** The reference answer for one instance (from the engine, without paging limits). */
export type Reference = { op: 'search'; ids: string[] } | { op: 'lookup'; entries: { id: string; inputs: string[] }[] };

export interface QueryDef {
  name: string;
  /** One-line description for the report. */
  label: string;
  op: 'search' | 'lookup';
  /** Uses free text (only the engine implements FTS5 bm25 relevance). */
  text: boolean;
  /** The floor applies: a pure `distance` search, optionally with filters. */
  floor: boolean;
}

export interface Contender {
  readonly name: string;
  /** null when the contender can run this kind; otherwise why not (printed and reported). */
  unsupported(query: QueryDef): string | null;
  /** Answer one instance. Synchronous contenders may return the value directly. */
  run(instance: Instance): Output | Promise<Output>;
  close(): Promise<void>;
}
