// The diagnostics worker: a worker thread (dist/diagnosticsWorker.js) that parses and validates the documents the
// server sends, runs their workloads on the simulated cluster, and posts the diagnostics back, so the server's own
// thread stays free for hover and completion however long a file takes.
import { readInputFile } from '../../host/read-file';
import { parentPort } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './protocol';
import { Validator } from './validator';

const port = parentPort;
if (port) {
  const validator = new Validator(
    (path) => readInputFile(path),
    (message: FromWorker) => port.postMessage(message),
    (message) => console.error(message),
  );
  port.on('message', (message: ToWorker) => validator.handle(message));
}
