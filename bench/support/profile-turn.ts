/**
 * A small driver for CPU profiles of one line's turn (not a bench):
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/support/profile-turn.ts r2 300 500
 * arguments: line (r0 | r1 | r2), turns, deltas per turn. Prints mean CPU per chunk.
 */
import { createBenchModel } from './bench-model.js';
import { consumeTurn } from './consume-turn.js';
import { historyModelMessages } from './history.js';
import { createR0Handler, createR1Handler, createR2Fixture } from './routes.js';

const [line = 'r2', turnsArg = '300', deltasArg = '500'] = process.argv.slice(2);
const turns = Number(turnsArg);
const deltas = Number(deltasArg);
const model = createBenchModel({ deltas });
const body = JSON.stringify({ messages: historyModelMessages(200) });

let next: () => Promise<import('./consume-turn.js').TurnSample>;
if (line === 'r2') {
  const r2 = await createR2Fixture(model);
  const chatId = await r2.createChat();
  next = async () => {
    const { request, userMessageId } = r2.request(chatId);
    const sample = await consumeTurn(r2.handler, request);
    await r2.forget(userMessageId, sample.assistantMessageId);
    return sample;
  };
} else {
  const handler = line === 'r0' ? createR0Handler(model) : createR1Handler(model);
  next = () => consumeTurn(handler, new Request('http://127.0.0.1/chat', { method: 'POST', body }));
}

let cpu = 0;
let ttfb = 0;
for (let i = 0; i < turns; i++) {
  const s = await next();
  if (i >= turns / 5) {
    cpu += s.cpuUs;
    ttfb += s.firstTokenMs;
  }
}
const n = turns - Math.ceil(turns / 5);
process.stdout.write(`${line}: ${(cpu / n / deltas).toFixed(2)} us CPU per chunk, first token ${(ttfb / n).toFixed(3)} ms\n`);
