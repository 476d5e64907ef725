/**
 * A PDF worker thread (started by `renderer.ts`): lays documents out off the
 * server's event loop, one at a time, and answers each with its bytes.
 */
import { parentPort } from 'node:worker_threads';
import { documentPdf } from './documents.ts';
import type { RenderAnswer, RenderJob } from './renderer.ts';

const port = parentPort!;
port.on('message', (job: RenderJob) => {
  let answer: RenderAnswer;
  try {
    answer = { pdf: documentPdf(job.kind, job.view, job.language) };
  } catch (error) {
    answer = { error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
port.postMessage('ready');
