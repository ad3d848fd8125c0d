import { executeTool } from '@ai-sdk/provider-utils';
import type { ModelMessage, TextStreamPart, ToolSet } from 'ai';
import type { ParsedToolCall } from './parse-tool-call.js';

type ResultPart = Extract<TextStreamPart<ToolSet>, { type: 'tool-result' | 'tool-error' }>;

/**
 * Runs one tool call as `streamText` does: every value an async-iterable `execute` yields is sent as a
 * preliminary result, the last one as the result; a throw becomes a `tool-error` part. Never rejects.
 */
export async function executeToolCall(
  call: ParsedToolCall,
  tools: ToolSet,
  context: { messages: ModelMessage[]; abortSignal: AbortSignal },
  emit: (part: ResultPart) => void,
): Promise<ResultPart> {
  const tool = tools[call.toolName]!;
  try {
    let output: unknown;
    const run = executeTool({
      execute: tool.execute!.bind(tool),
      input: call.input,
      options: { toolCallId: call.toolCallId, messages: context.messages, abortSignal: context.abortSignal, experimental_context: undefined },
    });
    for await (const part of run) {
      if (part.type === 'final') output = part.output;
      else emit({ ...call, type: 'tool-result', output: part.output, preliminary: true } as ResultPart);
    }
    const result = { ...call, type: 'tool-result', output } as ResultPart;
    emit(result);
    return result;
  } catch (error) {
    const failed = { ...call, type: 'tool-error', error } as ResultPart;
    emit(failed);
    return failed;
  }
}
