import { expect } from 'vitest';

interface Chunk {
  type: string;
  [key: string]: unknown;
}

async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

function chunksOf(sse: string): Chunk[] {
  return sse
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Chunk);
}

/**
 * What every example must do, over real HTTP against `baseUrl`: serve the page, dev sign-in, create a
 * chat, run two demo-model turns with tool calls (create a note, list notes), read the history, delete.
 */
export async function runExampleSmoke(baseUrl: string): Promise<void> {
  const page = await fetch(`${baseUrl}/`);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(await page.text()).toContain('<script type="module" src="/app.js">');
  expect((await fetch(`${baseUrl}/app.js`)).status).toBe(200);

  const { token, userId } = await json<{ token: string; userId: string }>(
    await fetch(`${baseUrl}/dev/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Smoke Test"}' }),
  );
  expect(userId).toBe('dev-smoke-test');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const api = (path: string, init: RequestInit = {}): Promise<Response> => fetch(`${baseUrl}/api/ai${path}`, { headers, ...init });

  const { chat } = await json<{ chat: { recordId: string } }>(await api('/chats', { method: 'POST', body: '{"title":"smoke"}' }), 201);
  const turn = async (content: string): Promise<Chunk[]> => {
    const response = await api('/chat', {
      method: 'POST',
      body: JSON.stringify({ chatId: chat.recordId, userMessageId: crypto.randomUUID(), content }),
    });
    expect(response.status).toBe(200);
    const chunks = chunksOf(await response.text());
    expect(chunks[0]).toEqual({ type: 'start', messageId: response.headers.get('x-asst-id') });
    return chunks;
  };

  const created = await turn('create a note titled Milk');
  expect(created.find((c) => c.type === 'tool-output-available')).toMatchObject({ output: { data: { title: 'Milk', userId } } });
  const listed = await turn('list my notes');
  expect(listed.find((c) => c.type === 'tool-input-available')).toMatchObject({ toolName: 'records_query' });
  expect(JSON.stringify(listed.find((c) => c.type === 'tool-output-available'))).toContain('Milk');

  const history = await json<{ messages: Array<{ data: { role: string } }> }>(await api(`/chats/${chat.recordId}`));
  expect(history.messages.map((m) => m.data.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  const deleted = await json<{ deleted: { messages: number } }>(await api(`/chats/${chat.recordId}`, { method: 'DELETE' }));
  expect(deleted.deleted.messages).toBe(4);
}
