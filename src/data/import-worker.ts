/**
 * Entry point of an import worker thread (started by workers.ts). Two jobs:
 *  - `range`: validate one byte range of an NDJSON file and send what each line gave
 *    (pass 1 of an import, run on several ranges at once);
 *  - `records`: run an import's validating pass over the files and send the valid records in
 *    batches, then the pass's report (so parsing and validating overlap with the store's writing). The main
 *    thread grants credits; without one the worker waits, so memory stays bounded however far
 *    the parser could run ahead of the store.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ndjsonRangeOutcomes, validatingBatches, type PassReport } from './pipeline.js';
import { SharedParts, type FromWorker, type ToWorker, type WorkerJob } from './workers.js';

const port = parentPort;
if (port === null) throw new Error('import-worker.ts must run in a worker thread');
const job = workerData as WorkerJob;
const send = (message: FromWorker): void => port.postMessage(message);

let credits = 0;
let wake: (() => void) | null = null;
port.on('message', (message: ToWorker) => {
  if (message.type === 'credit') {
    credits += message.n;
    wake?.();
    wake = null;
  }
});

async function run(): Promise<void> {
  if (job.job === 'range') {
    let lines = 0;
    for await (const list of ndjsonRangeOutcomes(job.file, job.range, (n) => (lines = n))) send({ type: 'outcomes', list });
    send({ type: 'end', lines });
    return;
  }
  credits = job.window;
  const shared = new SharedParts();
  const end: { report?: PassReport } = {};
  for await (const list of validatingBatches(job.plans, job.options, () => undefined, (r) => (end.report = r))) {
    if (list.length === 0) continue;
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits -= 1;
    // The records are this worker's to change: nothing else holds them once sent.
    const parts = shared.encode(list);
    send({ type: 'records', list, parts });
  }
  if (end.report === undefined) throw new Error('the validating pass ended without a report');
  send({ type: 'done', report: end.report });
}

run()
  .catch((error: unknown) => {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error), name: error instanceof Error ? error.name : 'Error' });
  })
  .finally(() => port.close());
