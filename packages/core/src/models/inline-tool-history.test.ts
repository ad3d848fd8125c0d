import { streamText, tool, type ModelMessage } from 'ai';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createProvider } from './create-provider.js';
import { fakeProviderGateway, GATEWAY } from './testing/fake-provider-gateway.js';

const gateway = fakeProviderGateway();
const server = setupServer(...gateway.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  gateway.requests.length = 0;
});
afterAll(() => server.close());

const history: ModelMessage[] = [
  { role: 'user', content: 'list my notes' },
  { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'records_query', input: { collection: 'notes' } }] },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'records_query', output: { type: 'json', value: { records: ['Milk'] } } }] },
];
const tools = { records_query: tool({ description: 'query', inputSchema: z.object({ collection: z.string() }) }) };
const model = createProvider({ baseURL: GATEWAY.provider_a }, 'provider_a', { authToken: 'caller' })('alpha-sonnet-4-6');

async function sentMessages(toolChoice: 'none' | 'auto') {
  await streamText({ model, messages: history, tools, toolChoice, maxRetries: 0 }).consumeStream();
  return JSON.stringify(gateway.requests[0]!.body);
}

describe('provider_a without tools in the request (toolChoice none: the capped last step)', () => {
  it('rewrites earlier tool_use / tool_result blocks as text, which the Messages API accepts without tools', async () => {
    const body = await sentMessages('none');
    expect(body).not.toContain('"tool_use"');
    expect(body).not.toContain('"tool_result"');
    expect(body).not.toContain('"tools"');
    expect(body).toContain('[Called tool records_query with input {\\"collection\\":\\"notes\\"}]');
    expect(body).toContain('[Result of tool records_query: {\\"records\\":[\\"Milk\\"]}]');
  });

  it('leaves tool blocks alone when tools are sent', async () => {
    const body = await sentMessages('auto');
    expect(body).toContain('"tool_use"');
    expect(body).toContain('"tool_result"');
  });
});
