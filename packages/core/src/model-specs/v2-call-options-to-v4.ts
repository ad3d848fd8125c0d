import type { LanguageModelV2CallOptions, LanguageModelV2DataContent, LanguageModelV2Message, LanguageModelV2ToolResultOutput } from '@ai-sdk/provider';
import type { LanguageModelV4CallOptions, LanguageModelV4Message, LanguageModelV4ToolResultOutput, SharedV4FileData } from 'provider-v7';
import { v2ToolToV3 } from './v2-call-options-to-v3.js';

/**
 * A `v2` model call (what chatwire's loop builds) as a `v4` call: the settings, tool choice, headers and abort
 * signal are the same; provider tools are `'provider'` instead of `'provider-defined'`; every file's data is
 * tagged (`{ type: 'data', data }` for bytes or base64, `{ type: 'url', url }` for a URL); a tool result's
 * `media` content is `file` content.
 */
export function v2CallOptionsToV4(options: LanguageModelV2CallOptions): LanguageModelV4CallOptions {
  const { prompt, tools, ...settings } = options;
  return {
    ...settings,
    prompt: prompt.map(v2MessageToV4),
    ...(tools !== undefined ? { tools: tools.map(v2ToolToV3) } : {}),
  };
}

/** File data as `v4` tags it. */
export function tagFileData(data: LanguageModelV2DataContent): SharedV4FileData {
  return data instanceof URL ? { type: 'url', url: data } : { type: 'data', data };
}

function v2MessageToV4(message: LanguageModelV2Message): LanguageModelV4Message {
  switch (message.role) {
    case 'system':
      return message;
    case 'user':
      return { ...message, content: message.content.map((part) => (part.type === 'file' ? { ...part, data: tagFileData(part.data) } : part)) };
    case 'assistant':
      return {
        ...message,
        content: message.content.map((part) => {
          if (part.type === 'file') return { ...part, data: tagFileData(part.data) };
          if (part.type === 'tool-result') return { ...part, output: v2OutputToV4(part.output) };
          return part;
        }),
      };
    case 'tool':
      return { ...message, content: message.content.map((part) => ({ ...part, output: v2OutputToV4(part.output) })) };
  }
}

function v2OutputToV4(output: LanguageModelV2ToolResultOutput): LanguageModelV4ToolResultOutput {
  if (output.type !== 'content') return output;
  return {
    type: 'content',
    value: output.value.map((item) => (item.type === 'text' ? item : { type: 'file', data: { type: 'data', data: item.data }, mediaType: item.mediaType })),
  };
}
