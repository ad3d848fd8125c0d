import type { LanguageModelV2CallOptions, LanguageModelV2Message, LanguageModelV2ToolResultOutput } from '@ai-sdk/provider';
import type { LanguageModelV3CallOptions, LanguageModelV3Message, LanguageModelV3ToolResultOutput } from 'provider-v6';

type V2Tool = NonNullable<LanguageModelV2CallOptions['tools']>[number];
type V3Tool = NonNullable<LanguageModelV3CallOptions['tools']>[number];

/**
 * A `v2` model call (what chatwire's loop builds) as a `v3` call. The settings, tool choice, headers and
 * abort signal are the same; provider tools are `'provider'` instead of `'provider-defined'`; a tool result's
 * `media` content is `image-data` for an image and `file-data` otherwise (as AI SDK 6 maps it).
 */
export function v2CallOptionsToV3(options: LanguageModelV2CallOptions): LanguageModelV3CallOptions {
  const { prompt, tools, ...settings } = options;
  return {
    ...settings,
    prompt: prompt.map(v2MessageToV3),
    ...(tools !== undefined ? { tools: tools.map(v2ToolToV3) } : {}),
  };
}

export function v2ToolToV3(tool: V2Tool): V3Tool {
  if (tool.type === 'provider-defined') return { type: 'provider', id: tool.id, name: tool.name, args: tool.args };
  return tool;
}

function v2MessageToV3(message: LanguageModelV2Message): LanguageModelV3Message {
  switch (message.role) {
    case 'system':
    case 'user':
      return message;
    case 'assistant':
      return { ...message, content: message.content.map((part) => (part.type === 'tool-result' ? { ...part, output: v2OutputToV3(part.output) } : part)) };
    case 'tool':
      return { ...message, content: message.content.map((part) => ({ ...part, output: v2OutputToV3(part.output) })) };
  }
}

function v2OutputToV3(output: LanguageModelV2ToolResultOutput): LanguageModelV3ToolResultOutput {
  if (output.type !== 'content') return output;
  return {
    type: 'content',
    value: output.value.map((item) => {
      if (item.type === 'text') return item;
      const kind = item.mediaType.startsWith('image/') ? 'image-data' : 'file-data';
      return { type: kind, data: item.data, mediaType: item.mediaType };
    }),
  };
}
