/**
 * Driver child of `bench/soak.bench.ts` (run with `--import tsx`; config as JSON in argv[2]): several users,
 * one worker each, send mixed turns (submit, edit, regenerate), renames, deletes, aborts and stops to
 * random server processes for the configured time, and report a `SoakDriverResult` over IPC.
 */
import { signHs256 } from './sign-hs256.js';
import type { BusyStreak, SoakDriverConfig, SoakDriverResult } from './soak-protocol.js';

const config = JSON.parse(process.argv[2]!) as SoakDriverConfig;
const result: SoakDriverResult = {
  ops: {},
  turnsCompleted: 0,
  turnsFailed: 0,
  turnsAborted: 0,
  failures: {},
  statuses: {},
  busyStreaks: [],
  networkErrors: 0,
  samples: [],
};
const BUSY_RETRY_MS = 200;
const BUSY_GIVE_UP_MS = 30_000;
const deadline = Date.now() + config.durationMs;
let opsLeft = config.maxOps;
/** Each worker's previous operation, by user. */
const previous = new Map<string, string>();
let seed = config.seed;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sample = (text: string) => {
  if (result.samples.length < 12) result.samples.push(text.slice(0, 300));
};
const count = (key: string, record: Record<string, number>) => (record[key] = (record[key] ?? 0) + 1);

interface Answer {
  status: number;
  text: string;
}

async function send(user: string, method: string, path: string, body?: unknown, options: { abortAfterMs?: number; base?: string } = {}): Promise<Answer | null> {
  const controller = new AbortController();
  const timer = options.abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), options.abortAfterMs);
  try {
    const response = await fetch(`${options.base ?? pick(config.bases)}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${signHs256({ sub: user }, config.secret)}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.any([controller.signal, AbortSignal.timeout(60_000)]),
    });
    const text = await response.text();
    count(String(response.status), result.statuses);
    return { status: response.status, text };
  } catch (error) {
    if (controller.signal.aborted) return { status: 0, text: 'aborted' };
    result.networkErrors++;
    sample(`${method} ${path}: ${error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}` : String(error)}`);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** A turn request, retried while the chat is busy; the streak of 409s is recorded. */
async function turn(user: string, body: Record<string, unknown>, options: { abortAfterMs?: number } = {}): Promise<Answer | null> {
  let streak: BusyStreak | null = null;
  for (;;) {
    const answer = await send(user, 'POST', '/chat', body, options);
    const busy = answer?.status === 409 && answer.text.includes('CHAT_BUSY');
    if (busy && !streak) streak = { start: Date.now(), end: 0, unresolved: false, after: previous.get(user) ?? 'none' };
    if (!busy || Date.now() - streak!.start > BUSY_GIVE_UP_MS || Date.now() > deadline + 5_000) {
      if (streak) {
        streak.end = Date.now();
        streak.unresolved = busy;
        result.busyStreaks.push(streak);
      }
      return answer;
    }
    await sleep(BUSY_RETRY_MS);
  }
}

function settle(answer: Answer | null, aborting: boolean): void {
  if (answer?.status === 0) {
    result.turnsAborted++;
    return;
  }
  if (answer?.status === 200) {
    const events = answer.text.split('\n\n').filter((e) => e.startsWith('data: '));
    const last = events.at(-2) ?? '';
    if (events.at(-1) === 'data: [DONE]' && last.includes('"type":"finish"')) result.turnsCompleted++;
    else if (aborting && last.includes('"type":"abort"')) result.turnsAborted++;
    else {
      result.turnsFailed++;
      const error = /"errorText":"([^"]*)"/.exec(last);
      count(error ? `error chunk: ${error[1]}` : 'no finish', result.failures);
      if (!error) sample(`turn ended without finish or error: ${answer.text.slice(-200)}`);
    }
    return;
  }
  result.turnsFailed++;
  count(answer ? `${answer.status} ${/"code":"([A-Z_]+)"/.exec(answer.text)?.[1] ?? ''}` : 'network error', result.failures);
  if (answer && answer.status !== 503 && answer.status !== 409 && answer.status !== 404) sample(`turn answered ${answer.status}: ${answer.text}`);
}

async function worker(user: string): Promise<void> {
  const chats: string[] = [];
  let n = 0;
  while (Date.now() < deadline && opsLeft-- > 0) {
    n++;
    if (chats.length === 0 || (chats.length < 3 && random() < 0.05)) {
      count('create', result.ops);
      const answer = await send(user, 'POST', '/chats', { title: `soak ${user} ${n}` });
      if (answer?.status === 201) chats.push((JSON.parse(answer.text) as { chat: { recordId: string } }).chat.recordId);
      else await sleep(200);
      continue;
    }
    const chatId = pick(chats);
    const action = random();
    const kind = action < 0.4 ? 'submit' : action < 0.5 ? 'abort' : action < 0.57 ? 'stop' : action < 0.7 ? 'edit' : action < 0.82 ? 'regenerate' : action < 0.93 ? 'rename' : 'delete';
    const messageId = `${user}-${n}-${Math.floor(random() * 1e9).toString(36)}`;
    if (action < 0.4) {
      count('submit', result.ops);
      settle(await turn(user, { chatId, userMessageId: messageId, content: `Question ${n}` }), false);
    } else if (action < 0.5) {
      count('abort', result.ops);
      settle(await turn(user, { chatId, userMessageId: messageId, content: `Aborted ${n}` }, { abortAfterMs: 50 + random() * 300 }), true);
    } else if (action < 0.57) {
      count('stop', result.ops);
      const running = turn(user, { chatId, userMessageId: messageId, content: `Stopped ${n}` });
      await sleep(100 + random() * 200);
      await send(user, 'POST', `/chats/${chatId}/stop`);
      settle(await running, false);
    } else if (action < 0.7) {
      count('edit', result.ops);
      const chat = await send(user, 'GET', `/chats/${chatId}`);
      const users = chat?.status === 200
        ? (JSON.parse(chat.text) as { messages: Array<{ recordId: string; data: { role: string } }> }).messages.filter((m) => m.data.role === 'user')
        : [];
      if (users.length === 0) continue;
      settle(await turn(user, { chatId, trigger: 'edit', userMessageId: pick(users).recordId, content: `Edited ${n}` }), false);
    } else if (action < 0.82) {
      count('regenerate', result.ops);
      const answer = await turn(user, { chatId, trigger: 'regenerate' });
      // Regenerating a chat with no user message yet is refused (400): not a failed turn.
      if (answer?.status === 400 && answer.text.includes('no user message')) continue;
      settle(answer, false);
    } else if (action < 0.93) {
      count('rename', result.ops);
      await send(user, 'PATCH', `/chats/${chatId}`, { title: `renamed ${n}` });
    } else {
      count('delete', result.ops);
      const answer = await send(user, 'DELETE', `/chats/${chatId}`);
      if (answer?.status === 200 || answer?.status === 404) chats.splice(chats.indexOf(chatId), 1);
    }
    previous.set(user, kind);
  }
}

await Promise.all(Array.from({ length: config.users }, (_, i) => worker(`soak-user-${i}`)));
if (process.send) process.send(result);
else process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
