import { SignJWT } from 'jose';

export const CHILD_SECRET = 'cross-process-secret-at-least-32-bytes!';

export async function childToken(userId: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(CHILD_SECRET));
}

/** One user's requests to a child server's routes (`base` is `http://127.0.0.1:<port>/api/ai`). */
export function chatClient(userId: string) {
  const token = childToken(userId);
  const request = async (base: string, method: string, path: string, body?: unknown, signal?: AbortSignal) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${await token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
  return {
    request,
    async createChat(base: string, title = 'cross-process'): Promise<string> {
      const response = await request(base, 'POST', '/chats', { title });
      if (response.status !== 201) throw new Error(`create chat: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { chat: { recordId: string } }).chat.recordId;
    },
    submit: (base: string, chatId: string, userMessageId: string, content = 'Hello', signal?: AbortSignal) =>
      request(base, 'POST', '/chat', { chatId, userMessageId, content }, signal),
  };
}

/** A response body read as it arrives: every byte so far, and a promise of the end (or the read error). */
export interface ByteReader {
  bytes(): Uint8Array;
  text(): string;
  /** Resolves when the body ended or failed (`error` set then). */
  done: Promise<void>;
  error: unknown;
}

export function readBytes(response: Response): ByteReader {
  const parts: Uint8Array[] = [];
  const state: ByteReader = {
    bytes: () => Buffer.concat(parts),
    text: () => Buffer.concat(parts).toString('utf8'),
    done: Promise.resolve(),
    error: undefined,
  };
  state.done = (async () => {
    const reader = response.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parts.push(value);
      }
    } catch (error) {
      state.error = error;
    }
  })();
  return state;
}

/** The SSE events of a body: parsed chunks, and whether it ended with `[DONE]`. */
export function parseSse(text: string): { chunks: Array<Record<string, unknown>>; done: boolean } {
  const chunks: Array<Record<string, unknown>> = [];
  let done = false;
  for (const event of text.split('\n\n')) {
    if (!event.startsWith('data: ')) continue;
    const data = event.slice('data: '.length);
    if (data === '[DONE]') done = true;
    else chunks.push(JSON.parse(data) as Record<string, unknown>);
  }
  return { chunks, done };
}

/** Waits until `predicate` holds, checking every `everyMs`; throws after `timeoutMs`. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs: number, what: string, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
