/**
 * The OpenTelemetry GenAI semantic conventions these spans follow: v1.37.0, whose `gen_ai.*` attributes
 * are marked Development (they may still change). `gen_ai.system` is also set, with the same value as
 * `gen_ai.provider.name`, for backends that read the older name.
 */
export const GEN_AI_SEMCONV_VERSION = '1.37.0';

export const ATTR = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  conversationId: 'gen_ai.conversation.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  errorType: 'error.type',
  chatId: 'chat.id',
  userId: 'user.id',
  turnId: 'chat.turn.id',
  trigger: 'chat.turn.trigger',
  ending: 'chat.turn.ending',
  step: 'chat.turn.step',
  messageId: 'chat.message.id',
  feedbackRating: 'chat.feedback.rating',
  feedbackComment: 'chat.feedback.comment',
} as const;

/** Span names. The model steps and tools use the GenAI names (`{operation} {model or tool}`). */
export const SPAN = {
  turn: 'chat.turn',
  prepare: 'chat.prepare',
  save: 'chat.save',
  feedback: 'chat.feedback',
  step: (modelId: string) => `chat ${modelId}`,
  tool: (toolName: string) => `execute_tool ${toolName}`,
} as const;
