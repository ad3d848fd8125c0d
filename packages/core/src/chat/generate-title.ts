import { generateText, type LanguageModel } from 'ai';
import type { RecordAccess, RecordStore } from '@chatwire/storage';
import { AI_CHATS, AI_MESSAGES, type ChatData, type MessageData } from '../records/chat-collections.js';
import { titleFromMessage } from '../records/title-from-message.js';
import type { TurnEnding } from '../turn/turn-ending.js';
import type { ErrorReporter } from '../turn/turn-types.js';
import { DEFAULT_TITLE } from './chat-inputs.js';

/** Who set a chat's title: nobody (`default`, replaceable), the user (never replaced) or a title model. */
export type TitleSource = NonNullable<ChatData['titleSource']>;

/** System prompt of the title model. */
export const TITLE_SYSTEM_PROMPT = [
  'You name conversations. Answer with a short title for the conversation below: at most six words, in the',
  'language of the user, no quotes, no final punctuation, nothing else.',
].join(' ');

/** A chat's title source; rows written before the field existed count as set by the user unless untitled. */
export function titleSourceOf(chat: ChatData): TitleSource {
  const source = chat.titleSource;
  if (source === 'default' || source === 'user' || source === 'generated') return source;
  return chat.title === DEFAULT_TITLE ? 'default' : 'user';
}

/** What the title generator needs to know of a turn that ended. */
export interface EndedTurn {
  chatId: string;
  authToken: string | undefined;
}

export interface TitleGenerator {
  /** Titles the turn's chat when the turn completed and nobody set its title yet. Never throws. */
  afterTurn(turn: EndedTurn, ending: TurnEnding): Promise<void>;
}

export interface TitleGeneratorOptions {
  store: RecordStore;
  /** The title model for a turn paid by `authToken`; null: the title is the first message's first line. */
  modelFor(authToken: string | undefined): LanguageModel | null;
  report: ErrorReporter;
}

/**
 * Generated chat titles, off the turn's hot path: called once a turn has ended (its stream is closed), it
 * titles a chat whose title is still the default after a completed turn. The write re-checks the title
 * source with the chat row locked, so a rename that lands while the model runs is never overwritten; a title
 * model that fails leaves the title as it was and is reported.
 */
export function createTitleGenerator(options: TitleGeneratorOptions): TitleGenerator {
  const { store, report } = options;

  async function generate(chatId: string, authToken: string | undefined): Promise<void> {
    const server = store.asServer();
    const chat = await server.find<ChatData>(AI_CHATS, chatId);
    if (!chat || titleSourceOf(chat.data) !== 'default') return;
    const user = await firstMessage(server, chatId, 'user');
    if (!user) return;
    const model = options.modelFor(authToken);
    const title = model
      ? cleanTitle(await askModel(model, user.content, (await firstMessage(server, chatId, 'assistant'))?.content ?? ''))
      : titleFromMessage(user.content);
    if (!title) return;
    await server.transaction(async (tx) => {
      // An empty update first: it locks the row, so the source read next is the latest committed one.
      await tx.update(AI_CHATS, chatId, {});
      const current = await tx.find<ChatData>(AI_CHATS, chatId);
      if (!current || titleSourceOf(current.data) !== 'default') return;
      await tx.update(AI_CHATS, chatId, { title, titleSource: 'generated' });
    });
  }

  return {
    async afterTurn(turn, ending) {
      if (ending.kind !== 'completed') return;
      try {
        await generate(turn.chatId, turn.authToken);
      } catch (error) {
        report(error, { stage: 'title', chatId: turn.chatId });
      }
    },
  };
}

async function firstMessage(server: RecordAccess, chatId: string, role: MessageData['role']): Promise<MessageData | null> {
  const page = await server.query<MessageData>(AI_MESSAGES, {
    filter: { chatId, role },
    orderBy: { field: 'createdAt', direction: 'asc' },
    limit: 1,
  });
  return page.records[0]?.data ?? null;
}

async function askModel(model: LanguageModel, question: string, answer: string): Promise<string> {
  const result = await generateText({
    model,
    system: TITLE_SYSTEM_PROMPT,
    messages: [{ role: 'user', content: `<user>\n${question.slice(0, 4_000)}\n</user>\n<assistant>\n${answer.slice(0, 4_000)}\n</assistant>` }],
    maxOutputTokens: 32,
    maxRetries: 1,
  });
  return result.text;
}

/** The model's answer as a title: its first line without quotes or a final period, at most 60 characters. */
function cleanTitle(text: string): string | null {
  const line = text.trim().split('\n', 1)[0] ?? '';
  const bare = line.replace(/^["'“”‘’`*#\s]+|["'“”‘’`*.\s]+$/g, '');
  return bare ? titleFromMessage(bare) : null;
}
