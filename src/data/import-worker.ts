/**
 * Entry point of an import worker thread (started by workers.ts). Two jobs:
 *  - `range`: validate one byte range of an NDJSON file and send what each line gave
 *    (pass 1 of an import, run on several ranges at once);
 *  - `records`: run the whole validation pipeline over the files and send the valid records in
 *    batches (pass 2, so parsing and validating overlap with the store's writing). The main
 *    thread grants credits; without one the worker waits, so memory stays bounded however far
 *    the parser could run ahead of the store.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DataValidationError } from '../errors.js';
import { checkedBatches, ndjsonRangeOutcomes } from './pipeline.js';
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
  for await (const list of checkedBatches(job.plans)) {
    if (list.length === 0) continue;
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits -= 1;
    // The records are this worker's to change: nothing else holds them once sent.
    const parts = shared.encode(list);
    send({ type: 'records', list, parts });
  }
  send({ type: 'done' });
}

run()
  .catch((error: unknown) => {
    if (error instanceof DataValidationError) send({ type: 'invalid', issues: [...error.issues] });
    else send({ type: 'failed', message: error instanceof Error ? error.message : String(error), name: error instanceof Error ? error.name : 'Error' });
  })
  .finally(() => port.close());
