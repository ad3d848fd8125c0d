import { createServer, type IncomingMessage, type Server } from 'node:http';

/** A held answer: `paused` settles once the answer stopped mid-way; `release()` lets it finish. */
export interface ProviderPause {
  paused: Promise<void>;
  release(): void;
}

export interface NumberedProvider {
  server: Server;
  /** The last user message of every request, in order (how many times the model was called, and with what). */
  readonly asked: string[];
  /** The next answer stops after its opening words until `release()`. */
  pauseNext(): ProviderPause;
}

/** The words each answer opens with: `Reply <n> to "<question>".`, then filler, then `End of reply <n>.` */
export function replyOpening(n: number, question: string): string {
  return `Reply ${n} to "${question}".`;
}

export function replyEnding(n: number): string {
  return `End of reply ${n}.`;
}

const FILLER = ' The keeper climbed the stairs, lit the lamp and watched the ships pass in the night. ';

/**
 * An OpenAI-compatible chat completions endpoint (what `provider_c` speaks) whose answers are numbered by call,
 * so a regenerated answer differs from the one it replaces: `Reply <n> to "<question>". <filler> End of reply
 * <n>.`, a few words every 30 ms. A paused answer stops right after its opening sentence (already streamed)
 * until released; a connection closed by the caller ends its answer.
 */
export function createNumberedProvider(): NumberedProvider {
  const asked: string[] = [];
  let nextPause: { reached: () => void; held: Promise<void> } | null = null;
  const server = createServer((request, response) => {
    void readJson(request).then(async (body) => {
      const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role: string; content: unknown }>) : [];
      const last = messages.filter((m) => m.role === 'user').at(-1);
      const question = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
      asked.push(question);
      const n = asked.length;
      const pause = nextPause;
      nextPause = null;
      let closed = false;
      response.on('close', () => (closed = true));
      const chunk = (choices: unknown[], extra: object = {}) =>
        `data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 0, model: body.model, choices, ...extra })}\n\n`;
      const text = (content: string) => chunk([{ index: 0, delta: { content }, finish_reason: null }]);
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
      response.write(text(replyOpening(n, question)));
      if (pause) {
        await delay(60); // lets the opening reach the page before the test acts on the pause
        pause.reached();
        await Promise.race([pause.held, new Promise((resolve) => response.once('close', resolve))]);
      }
      for (const word of FILLER.split(/(?<= )/)) {
        if (closed) return;
        response.write(text(word));
        await delay(30);
      }
      if (closed) return;
      response.write(text(replyEnding(n)));
      response.write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
      response.write(chunk([], { usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } }));
      response.end('data: [DONE]\n\n');
    });
  });
  return {
    server,
    asked,
    pauseNext() {
      let reached = (): void => undefined;
      let release = (): void => undefined;
      const paused = new Promise<void>((resolve) => (reached = resolve));
      const held = new Promise<void>((resolve) => (release = resolve));
      nextPause = { reached, held };
      return { paused, release };
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const part of request) text += String(part);
  return JSON.parse(text) as Record<string, unknown>;
}
