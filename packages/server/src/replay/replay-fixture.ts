import type { ModelId } from '@chatwire/core';

/** One recorded provider HTTP response: the status and the exact body bytes (an SSE stream or a JSON error). */
export interface RecordedResponse {
  status: number;
  contentType: string;
  body: string;
}

/** The provider tools a fixture's model may call besides the app's own (`weather`, `explode`). */
export type ProviderToolName = 'anthropic_web_search' | 'anthropic_code_execution' | 'openai_web_search' | 'openai_file_search' | 'openai_code_interpreter' | 'openai_image_generation';

/**
 * A recorded exchange: what the user sent and the provider's answer to each model call of the turn, in order
 * (a tool loop makes one call per step).
 */
export interface ReplayFixture {
  name: string;
  modelId: ModelId;
  content: string;
  providerTools: readonly ProviderToolName[];
  /** How the turn ends: with `finish`, or with an `error` chunk (a provider error). */
  ends: 'finish' | 'error';
  responses: readonly RecordedResponse[];
}

const SSE = 'text/event-stream';

/** Anthropic Messages: every event is `event: <type>` plus its JSON. */
export function anthropicSse(events: ReadonlyArray<{ type: string } & Record<string, unknown>>): RecordedResponse {
  return { status: 200, contentType: SSE, body: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('') };
}

/** OpenAI Responses: `event: <type>` plus its JSON, each with its `sequence_number`. */
export function responsesSse(events: ReadonlyArray<{ type: string } & Record<string, unknown>>): RecordedResponse {
  return {
    status: 200,
    contentType: SSE,
    body: events.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join(''),
  };
}

/** OpenAI chat completions: bare `data:` lines, ended by `data: [DONE]`. */
export function chatCompletionsSse(chunks: ReadonlyArray<Record<string, unknown>>): RecordedResponse {
  return { status: 200, contentType: SSE, body: `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n` };
}
