/**
 * The one log line per index obtained with an index-file home: where it was loaded from, or
 * why it was built from the store instead (and whether the new file was written).
 */
import type { IndexFileEvent } from './index-file-source.js';

/** The part of a pino logger used here (the store layer does not import logging). */
export interface IndexFileLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export function logIndexFileEvent(logger: IndexFileLogger, event: IndexFileEvent): void {
  const ms = Math.round(event.ms);
  if (event.outcome === 'loaded') {
    logger.info(
      { from: event.from, locations: event.locations, generation: event.generation, ms },
      'in-memory index loaded from its index file',
    );
    return;
  }
  const fields = { reason: event.reason, locations: event.locations, generation: event.generation, ms, indexFileWritten: event.written };
  if (event.writeError !== undefined) {
    logger.warn(
      { ...fields, writeError: event.writeError },
      `in-memory index built from the store because ${event.reason}; writing its index file failed (the next start builds again)`,
    );
  } else logger.info(fields, `in-memory index built from the store because ${event.reason}`);
}
