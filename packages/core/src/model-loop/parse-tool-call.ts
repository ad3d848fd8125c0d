import type { LanguageModelV2ToolCall } from '@ai-sdk/provider';
import { asSchema, safeParseJSON, safeValidateTypes } from '@ai-sdk/provider-utils';
import { InvalidToolInputError, NoSuchToolError, type ToolSet, type TypedToolCall } from 'ai';

/** A parsed tool call as `streamText` streams it: `invalid` (with its `error`) when it cannot run. */
export type ParsedToolCall = TypedToolCall<ToolSet> & { invalid?: boolean; error?: unknown };

/**
 * The AI SDK's own parsing of a model's tool call (`streamText`'s `parseToolCall`, without call repair):
 * the input JSON parsed and validated against the tool's input schema; an unknown tool or a bad input
 * gives an `invalid` dynamic call carrying the error and the input as far as it parses. A call the
 * provider ran itself may name a tool outside the tool set.
 */
export async function parseToolCall(call: LanguageModelV2ToolCall, tools: ToolSet): Promise<ParsedToolCall> {
  try {
    return await doParse(call, tools);
  } catch (error) {
    const parsed = await safeParseJSON({ text: call.input });
    return { ...parsedCall(call, parsed.success ? parsed.value : call.input, { dynamic: true }), invalid: true, error } as ParsedToolCall;
  }
}

async function doParse(call: LanguageModelV2ToolCall, tools: ToolSet): Promise<ParsedToolCall> {
  const tool = tools[call.toolName];
  if (tool == null) {
    if (call.providerExecuted) return providerExecutedDynamicCall(call);
    throw new NoSuchToolError({ toolName: call.toolName, availableTools: Object.keys(tools) });
  }
  const schema = asSchema(tool.inputSchema as Parameters<typeof asSchema>[0]);
  const parsed = call.input.trim() === '' ? await safeValidateTypes({ value: {}, schema }) : await safeParseJSON({ text: call.input, schema });
  if (!parsed.success) throw new InvalidToolInputError({ toolName: call.toolName, toolInput: call.input, cause: parsed.error });
  return parsedCall(call, parsed.value, { providerExecuted: call.providerExecuted, ...(tool.type === 'dynamic' ? { dynamic: true } : {}) });
}

async function providerExecutedDynamicCall(call: LanguageModelV2ToolCall): Promise<ParsedToolCall> {
  const parsed = call.input.trim() === '' ? { success: true as const, value: {} } : await safeParseJSON({ text: call.input });
  if (!parsed.success) throw new InvalidToolInputError({ toolName: call.toolName, toolInput: call.input, cause: parsed.error });
  return parsedCall(call, parsed.value, { providerExecuted: true, dynamic: true });
}

function parsedCall(call: LanguageModelV2ToolCall, input: unknown, flags: { providerExecuted?: boolean; dynamic?: true }): ParsedToolCall {
  return { type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input, ...flags, providerMetadata: call.providerMetadata } as ParsedToolCall;
}
