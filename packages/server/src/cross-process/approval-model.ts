import type { LanguageModelV2, LanguageModelV2StreamPart } from '@ai-sdk/provider';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/**
 * A deterministic `LanguageModelV2` for the approval scenario of the cross-process tests: when the prompt
 * ends with the user's message it calls `notes_purge` once (`call_purge`, `{ title: <the message's last
 * word> }`); once the prompt ends with that call's result it answers with `Purged.` or, for a declined call,
 * `Kept.`.
 */
export function createApprovalModel(): LanguageModelV2 {
  return {
    specificationVersion: 'v2',
    provider: 'cross-process.approval',
    modelId: 'approval',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the approval model only streams');
    },
    async doStream({ prompt }) {
      const last = prompt.at(-1);
      const parts: LanguageModelV2StreamPart[] = [{ type: 'stream-start', warnings: [] }];
      if (last?.role === 'tool') {
        const denied = JSON.stringify(last.content).includes('declined');
        parts.push(
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: denied ? 'Kept.' : 'Purged.' },
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: 'stop', usage },
        );
      } else {
        const said = last?.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ') : '';
        const title = said.trim().split(/\s+/).at(-1) ?? '';
        parts.push(
          { type: 'tool-call', toolCallId: 'call_purge', toolName: 'notes_purge', input: JSON.stringify({ title }) },
          { type: 'finish', finishReason: 'tool-calls', usage },
        );
      }
      return {
        stream: new ReadableStream<LanguageModelV2StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
