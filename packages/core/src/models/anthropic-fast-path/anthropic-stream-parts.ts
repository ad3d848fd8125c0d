import { InvalidResponseDataError, type LanguageModelV2FinishReason, type LanguageModelV2StreamPart, type LanguageModelV2Usage } from '@ai-sdk/provider';
import { parseAnthropicEvent, type AnthropicEvent, type AnthropicIteration, type AnthropicUsage } from './parse-anthropic-event.js';

type Block =
  | { type: 'text' }
  | { type: 'reasoning' }
  | {
      type: 'tool-call';
      toolCallId: string;
      toolName: string;
      input: string;
      firstDelta: boolean;
      toolset?: { name: string; memberName: string };
    };

/** Turns each event's data into the parts it makes; `push` appends them to `out`. */
export interface AnthropicStreamParts {
  push(data: string, out: LanguageModelV2StreamPart[]): void;
}

/**
 * The stream transform of @ai-sdk/anthropic@2's `doStream` (2.0.112), for the requests the fast path takes
 * (no JSON response tool, no provider tools, no citations, no raw chunks): the same parts for the same
 * events (response-metadata, text, reasoning and tool-input parts with the package's ids, tool-call, finish
 * with its usage and providerMetadata), an `error` part for an event that is not JSON or not what the
 * package's schema accepts, and for an `error` event. The one difference: a valid event the fast path does
 * not parse (see `parseAnthropicEvent`) is an `error` part here, where the package would emit its parts.
 */
export function createAnthropicStreamParts(): AnthropicStreamParts {
  let finishReason: LanguageModelV2FinishReason = 'unknown';
  const usage: LanguageModelV2Usage = { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };
  const blocks = new Map<number, Block>();
  let rawUsage: AnthropicUsage | undefined;
  let cacheCreationInputTokens: number | null = null;
  let stopSequence: string | null = null;
  let stopDetails: Record<string, string> | undefined;
  let iterations: AnthropicIteration[] | null = null;
  let isMessageOpen = false;
  let activeMessageId: string | null | undefined;
  let invalidSequence = false;
  let blockType: string | undefined;

  const handle = (value: AnthropicEvent, out: LanguageModelV2StreamPart[]): void => {
    switch (value.type) {
      case 'ping':
        return;
      case 'content_block_start': {
        const block = value.content_block;
        if (block.type === 'fallback') return;
        blockType = block.type;
        const id = String(value.index);
        switch (block.type) {
          case 'text':
            blocks.set(value.index, { type: 'text' });
            out.push({ type: 'text-start', id });
            return;
          case 'thinking':
            blocks.set(value.index, { type: 'reasoning' });
            out.push({ type: 'reasoning-start', id });
            return;
          case 'redacted_thinking':
            blocks.set(value.index, { type: 'reasoning' });
            out.push({ type: 'reasoning-start', id, providerMetadata: { anthropic: { redactedData: block.data } } });
            return;
          case 'tool_use': {
            const toolset = block.toolset_name;
            const toolName = toolset ?? block.name;
            blocks.set(value.index, {
              type: 'tool-call',
              toolCallId: block.id,
              toolName,
              input: '',
              firstDelta: true,
              ...(toolset != null && { toolset: { name: toolset, memberName: block.name } }),
            });
            out.push({ type: 'tool-input-start', id: block.id, toolName });
            return;
          }
        }
        return;
      }
      case 'content_block_stop': {
        const block = blocks.get(value.index);
        if (block !== undefined) {
          const id = String(value.index);
          if (block.type === 'text') out.push({ type: 'text-end', id });
          else if (block.type === 'reasoning') out.push({ type: 'reasoning-end', id });
          else endToolCall(block, out);
          blocks.delete(value.index);
        }
        blockType = undefined;
        return;
      }
      case 'content_block_delta': {
        const delta = value.delta;
        const id = String(value.index);
        switch (delta.type) {
          case 'text_delta':
            out.push({ type: 'text-delta', id, delta: delta.text });
            return;
          case 'thinking_delta':
            out.push({ type: 'reasoning-delta', id, delta: delta.thinking });
            return;
          case 'signature_delta':
            if (blockType === 'thinking') {
              out.push({ type: 'reasoning-delta', id, delta: '', providerMetadata: { anthropic: { signature: delta.signature } } });
            }
            return;
          case 'input_json_delta': {
            let json = delta.partial_json;
            if (json.length === 0) return;
            const block = blocks.get(value.index);
            if (block?.type === 'text') {
              out.push({ type: 'text-delta', id, delta: json });
              return;
            }
            if (block?.type !== 'tool-call') return;
            if (block.toolset !== undefined) {
              block.input += json;
              return;
            }
            if (block.firstDelta && (block.toolName === 'bash_code_execution' || block.toolName === 'text_editor_code_execution')) {
              json = `{"type": "${block.toolName}",${json.substring(1)}`;
            }
            out.push({ type: 'tool-input-delta', id: block.toolCallId, delta: json });
            block.input += json;
            block.firstDelta = false;
            return;
          }
        }
        return;
      }
      case 'message_start': {
        if (isMessageOpen) {
          if (activeMessageId === value.message.id) return;
          invalidSequence = true;
          out.push({
            type: 'error',
            error: new InvalidResponseDataError({
              data: value,
              message: `Received message_start for message ${JSON.stringify(value.message.id)} while message ${JSON.stringify(activeMessageId)} is still open.`,
            }),
          });
          return;
        }
        isMessageOpen = true;
        activeMessageId = value.message.id;
        const start = value.message.usage;
        usage.inputTokens = start.input_tokens ?? undefined;
        usage.cachedInputTokens = start.cache_read_input_tokens ?? undefined;
        rawUsage = { ...start };
        cacheCreationInputTokens = start.cache_creation_input_tokens ?? null;
        out.push({ type: 'response-metadata', id: value.message.id ?? undefined, modelId: value.message.model ?? undefined });
        return;
      }
      case 'message_delta': {
        const delta = value.usage;
        if (delta.cache_read_input_tokens != null) usage.cachedInputTokens = delta.cache_read_input_tokens;
        if (delta.cache_creation_input_tokens != null) cacheCreationInputTokens = delta.cache_creation_input_tokens;
        if (delta.iterations != null) iterations = delta.iterations;
        const servedByFallback = delta.iterations?.some((it) => it.type === 'fallback_message');
        if (delta.iterations && delta.iterations.length > 0 && !servedByFallback) {
          let input = 0;
          let output = 0;
          for (const it of delta.iterations) {
            input += it.input_tokens;
            output += it.output_tokens;
          }
          usage.inputTokens = input;
          usage.outputTokens = output;
        } else {
          if (delta.input_tokens != null && usage.inputTokens !== delta.input_tokens) usage.inputTokens = delta.input_tokens;
          usage.outputTokens = delta.output_tokens;
        }
        usage.totalTokens = (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
        finishReason = mapStopReason(value.delta.stop_reason);
        const details = value.delta.stop_details;
        stopDetails =
          details == null
            ? undefined
            : {
                type: details.type,
                ...(details.category != null ? { category: details.category } : {}),
                ...(details.explanation != null ? { explanation: details.explanation } : {}),
                ...(details.recommended_model != null ? { recommendedModel: details.recommended_model } : {}),
              };
        stopSequence = value.delta.stop_sequence ?? null;
        rawUsage = { ...rawUsage, ...delta };
        return;
      }
      case 'message_stop':
        isMessageOpen = false;
        activeMessageId = undefined;
        out.push({
          type: 'finish',
          finishReason,
          usage,
          providerMetadata: {
            anthropic: {
              usage: (rawUsage ?? null) as never,
              cacheCreationInputTokens,
              stopSequence,
              ...(stopDetails != null ? { stopDetails } : {}),
              iterations: iterations
                ? iterations.map((it) => ({
                    type: it.type,
                    ...(it.model != null ? { model: it.model } : {}),
                    inputTokens: it.input_tokens,
                    outputTokens: it.output_tokens,
                  }))
                : null,
              container: null,
              contextManagement: null,
            },
          },
        });
        return;
      case 'error':
        out.push({ type: 'error', error: value.error });
        return;
    }
  };

  return {
    push(data, out) {
      if (invalidSequence) return;
      const parsed = parseAnthropicEvent(data);
      if (parsed.kind === 'event') handle(parsed.event, out);
      else if (parsed.kind === 'invalid') out.push({ type: 'error', error: parsed.error });
      else {
        out.push({
          type: 'error',
          error: new InvalidResponseDataError({ data: parsed.value, message: `chatwire's Anthropic fast path does not read ${parsed.what} (a request that can ask for it goes through @ai-sdk/anthropic)` }),
        });
      }
    },
  };
}

function endToolCall(block: Extract<Block, { type: 'tool-call' }>, out: LanguageModelV2StreamPart[]): void {
  if (block.toolset !== undefined) {
    let memberInput: unknown = {};
    try {
      memberInput = block.input === '' ? {} : JSON.parse(block.input);
    } catch {
      memberInput = undefined;
    }
    if (memberInput !== undefined) block.input = JSON.stringify(toToolsetMemberInput(block.toolset.memberName, memberInput));
    out.push({ type: 'tool-input-delta', id: block.toolCallId, delta: block.input });
  }
  out.push({ type: 'tool-input-end', id: block.toolCallId });
  const toolName = block.toolName === 'text_editor_code_execution' || block.toolName === 'bash_code_execution' ? 'code_execution' : block.toolName;
  out.push({
    type: 'tool-call',
    toolCallId: block.toolCallId,
    toolName,
    input: block.input === '' ? '{}' : block.input,
    providerExecuted: undefined,
    ...(block.toolset && { providerMetadata: { anthropic: { toolsetName: block.toolset.name } } }),
  } as LanguageModelV2StreamPart);
}

/** @ai-sdk/anthropic's `toToolsetMemberInput`. */
function toToolsetMemberInput(memberName: string, input: unknown): unknown {
  return { action: memberName, ...(typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {}) };
}

function mapStopReason(reason: string | null | undefined): LanguageModelV2FinishReason {
  switch (reason) {
    case 'pause_turn':
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'refusal':
      return 'content-filter';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
      return 'length';
    case 'compaction':
      return 'other';
    default:
      return 'unknown';
  }
}
