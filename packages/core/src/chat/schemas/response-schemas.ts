import { z } from 'zod/v4';

/** The response bodies of the chat routes, as `GET /openapi.json` describes them. */

const timestamp = z.string().meta({ description: 'ISO 8601 time.' });

export const chatSchema = z.object({
  recordId: z.string(),
  userId: z.string(),
  title: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const chatResponseSchema = z.object({ chat: chatSchema });

export const chatListSchema = z.object({
  chats: z.array(chatSchema),
  nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
});

export const messageSchema = z
  .object({
    recordId: z.string(),
    data: z.object({
      chatId: z.string(),
      userId: z.string(),
      role: z.enum(['user', 'assistant']),
      content: z.string(),
      parts: z.array(z.unknown()).optional().meta({ description: 'UI message parts (text, tool invocations).' }),
      status: z.enum(['complete', 'stopped', 'awaiting-approval']).optional(),
    }),
    createdAt: timestamp,
    updatedAt: timestamp,
    feedback: z
      .object({ rating: z.enum(['up', 'down']), comment: z.string().optional(), updatedAt: timestamp })
      .optional()
      .meta({ description: 'The caller’s rating of this answer (`PUT /chats/:id/messages/:mid/feedback`), when there is one.' }),
  });

export const chatWithMessagesSchema = z.object({ chat: chatSchema, messages: z.array(messageSchema) });

export const deletedChatSchema = z.object({ deleted: z.object({ chatId: z.string(), messages: z.int() }) });

export const stoppedSchema = z.object({ stopped: z.boolean() });

export const modelSchema = z.object({
  id: z.string(),
  provider: z.string(),
  label: z.string(),
  inputs: z.array(z.enum(['text', 'image', 'pdf', 'text-file'])).meta({ description: 'What the model reads; an attachment it cannot read is a placeholder in its prompt.' }),
});

export const modelListSchema = z.object({ models: z.array(modelSchema) });

export const usageRowSchema = z.object({
  date: z.iso.date(),
  modelId: z.string(),
  turns: z.int(),
  inputTokens: z.int(),
  outputTokens: z.int(),
  totalTokens: z.int(),
});

export const usageSchema = z.object({ usage: z.array(usageRowSchema) });

/** Every error answer: a stable `code`, a readable `message`, and `retryAfter` (seconds) when retrying helps. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ examples: ['VALIDATION', 'UNAUTHORIZED', 'NOT_FOUND', 'RATE_LIMITED'] }),
      message: z.string(),
      retryAfter: z.number().optional().meta({ description: 'Seconds to wait before retrying.' }),
    }),
  });
