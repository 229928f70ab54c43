/**
 * Our engine: `LocationService` over a `LocationStore` (SQLite, or PostgreSQL when that adapter
 * is present), called in-process exactly as the transports call it.
 */
import type { SearchRequest } from '../../../src/domain/requests.js';
import { LocationService } from '../../../src/service.js';
import type { LocationStore } from '../../../src/store/store.js';
import type { Contender, Instance, Output, QueryDef, Reference } from '../types.js';

/** Fixed so that cursors are reproducible between runs; this is not a deployment. */
export const BENCH_CURSOR_SECRET = 'bench-cursor-secret-not-for-production-use-000000';

export class EngineContender implements Contender {
  readonly service: LocationService;

  constructor(
    readonly name: string,
    readonly store: LocationStore,
  ) {
    this.service = new LocationService(store, { cursorSecret: BENCH_CURSOR_SECRET });
  }

  unsupported(_query: QueryDef): string | null {
    return null;
  }

  async run(instance: Instance): Promise<Output> {
    if (instance.op === 'lookup') {
      const result = await this.service.lookup(instance.request);
      return { type: 'lookup', entries: result.locations.map((l) => ({ id: l.id, inputs: l.inputs.map((i) => i.id) })) };
    }
    const ids: string[] = [];
    let total: number | undefined;
    let request: SearchRequest = instance.request;
    for (let page = 0; page < instance.pages; page++) {
      const result = await this.service.search(request);
      for (const l of result.locations) ids.push(l.id);
      if (page === 0) total = result.pagination.total_count;
      const cursor = result.pagination.cursor;
      if (!result.pagination.has_next_page || cursor === undefined) break;
      request = { ...instance.request, pagination: { ...instance.request.pagination, cursor } };
    }
    return total === undefined ? { type: 'search', ids } : { type: 'search', ids, total };
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}

/**
 * The reference answers: the same engine with no page-size limit, so one call returns the
 * complete ordered result (for a bounded browse: the complete browse set).
 */
export class ReferenceEngine {
  private readonly service: LocationService;

  constructor(store: LocationStore) {
    this.service = new LocationService(store, {
      cursorSecret: BENCH_CURSOR_SECRET,
      limits: { maxPageSize: Number.MAX_SAFE_INTEGER },
    });
  }

  async answer(instance: Instance): Promise<Reference> {
    if (instance.op === 'lookup') {
      const result = await this.service.lookup(instance.request);
      return { op: 'lookup', entries: result.locations.map((l) => ({ id: l.id, inputs: l.inputs.map((i) => i.id) })) };
    }
    const { pagination: _ignored, ...rest } = instance.request;
    void _ignored;
    const result = await this.service.search({ ...rest, pagination: { limit: Number.MAX_SAFE_INTEGER } });
    return { op: 'search', ids: result.locations.map((l) => l.id) };
  }
}
