import type {
  LanguageModelV2CallOptions,
  LanguageModelV2Middleware,
  LanguageModelV2Prompt,
  LanguageModelV2TextPart,
  LanguageModelV2ToolResultOutput,
} from '@ai-sdk/provider';

/**
 * The Anthropic Messages API rejects a request whose history holds `tool_use` / `tool_result` blocks but
 * which defines no tools ("Requests which include tool_use or tool_result blocks must define tools"), and
 * @ai-sdk/anthropic@2 drops the tools for `toolChoice: 'none'` — which the turn uses for its last allowed step
 * so a capped turn still ends with an answer. For such tool-less calls the earlier tool exchanges are
 * rewritten as plain text, which every provider accepts; calls with tools are left untouched.
 */
export function inlineToolHistory(params: LanguageModelV2CallOptions): LanguageModelV2CallOptions {
  const toolless = !params.tools || params.tools.length === 0 || params.toolChoice?.type === 'none';
  if (!toolless || !params.prompt.some(hasToolParts)) return params;
  const prompt: LanguageModelV2Prompt = params.prompt.map((message) => {
    if (message.role === 'tool') {
      return {
        role: 'user',
        content: message.content.map((part) => text(`[Result of tool ${part.toolName}: ${outputText(part.output)}]`)),
      };
    }
    if (message.role !== 'assistant') return message;
    return {
      ...message,
      content: message.content.map((part) =>
        part.type === 'tool-call'
          ? text(`[Called tool ${part.toolName} with input ${JSON.stringify(part.input ?? {})}]`)
          : part.type === 'tool-result'
            ? text(`[Result of tool ${part.toolName}: ${outputText(part.output)}]`)
            : part,
      ),
    };
  });
  return { ...params, prompt };
}

/** `inlineToolHistory` as middleware, for models of any provider package (app-provided instances). */
export const inlineToolHistoryMiddleware: LanguageModelV2Middleware = {
  middlewareVersion: 'v2',
  transformParams: async ({ params }) => inlineToolHistory(params),
};

function hasToolParts(message: LanguageModelV2Prompt[number]): boolean {
  if (message.role === 'tool') return true;
  return message.role === 'assistant' && message.content.some((p) => p.type === 'tool-call' || p.type === 'tool-result');
}

function text(value: string): LanguageModelV2TextPart {
  return { type: 'text', text: value };
}

function outputText(output: LanguageModelV2ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.type === 'error-text' ? `error: ${output.value}` : output.value;
    case 'json':
      return JSON.stringify(output.value);
    case 'error-json':
      return `error: ${JSON.stringify(output.value)}`;
    case 'content':
      return output.value.map((item) => (item.type === 'text' ? item.text : `[${item.mediaType} content]`)).join('\n');
  }
}
