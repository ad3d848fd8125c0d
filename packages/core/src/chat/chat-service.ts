import { ChatwireError, type Caller, type QueryPage, type RecordEnvelope } from '@chatwire/storage';
import { listOfferedTools } from '../tools/list-offered-tools.js';
import { createTurnManager } from '../turn/create-turn-manager.js';
import { loadChatMessages } from '../prompt/load-history.js';
import { toWireMessage } from '../records/message-record-id.js';
import { readActivePath } from '../branches/load-chat-tree.js';
import { switchBranch } from '../branches/switch-branch.js';
import type { ErrorReporter } from '../turn/turn-types.js';
import { parseUsageQuery } from '../limits/parse-usage-query.js';
import { readUsage } from '../limits/read-usage.js';
import { AI_CHATS, AI_MESSAGES, AI_TURNS, CHAT_COLLECTIONS, type Chat, type ChatData } from '../records/chat-collections.js';
import { DEFAULT_TITLE, isRecordId, parseCreateChatInput, parseListChatsInput, parseRenameChatInput, parseTurnInput } from './chat-inputs.js';
import { attachFeedback } from '../feedback/attach-feedback.js';
import { createFeedbackService } from '../feedback/create-feedback-service.js';
import type { FeedbackEvent } from '../feedback/feedback-types.js';
import { AI_FEEDBACK } from '../records/feedback-collection.js';
import { AI_SHARES } from '../records/share-collection.js';
import { createShareService } from '../shares/create-share-service.js';
import type { AttachmentRow } from '../attachments/create-attachment-service.js';
import { deleteChatAttachments } from '../attachments/delete-chat-attachments.js';
import { withContentUrls } from '../attachments/with-content-urls.js';
import { buildTurnRuntime } from './build-turn-runtime.js';
import type { ChatService, ChatServiceOptions } from './chat-service-types.js';

export type { ChatService, ChatServiceOptions, ModelInfo } from './chat-service-types.js';

const CHAT_NOT_FOUND = 'Chat not found';

function toChat(record: RecordEnvelope<ChatData>): Chat {
  return {
    recordId: record.recordId,
    userId: record.data.userId,
    title: record.data.title,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export function createChatService(options: ChatServiceOptions): ChatService {
  const { store, models } = options;
  for (const collection of CHAT_COLLECTIONS) store.register(collection);
  const runtime = buildTurnRuntime(options);
  const { tools, attachments, report: onError } = runtime;
  const turns = createTurnManager(runtime);
  const recordFeedback = (options.observe as { recordFeedback?: (event: FeedbackEvent) => void } | undefined)?.recordFeedback;
  const feedback = createFeedbackService({
    store,
    onFeedback: options.onFeedback,
    recordSpan: recordFeedback,
    report: (error) => onError(error, { stage: 'internal' }),
  });
  const sharing = options.sharing ?? false;
  const shares = sharing
    ? createShareService({ store, ...(typeof sharing === 'object' && sharing.readsPerMinute !== undefined ? { readsPerMinute: sharing.readsPerMinute } : {}) })
    : null;
  const sharingOff = (): ChatwireError => new ChatwireError('NOT_FOUND', 'Share links are off');

  /** 404 for a chat that does not exist and for another user's chat alike. */
  async function ownedChat(caller: Caller, chatId: string): Promise<RecordEnvelope<ChatData>> {
    const chat = isRecordId(chatId) ? await store.asCaller(caller).find<ChatData>(AI_CHATS, chatId) : null;
    if (!chat) throw new ChatwireError('NOT_FOUND', CHAT_NOT_FOUND);
    return chat;
  }

  return {
    store,
    attachments,

    async createChat(caller, input) {
      const { title } = parseCreateChatInput(input);
      const record = await store
        .asServer()
        .create<ChatData>(
          AI_CHATS,
          { userId: caller.userId, title: title ?? DEFAULT_TITLE, titleSource: title ? 'user' : 'default' },
          { recordId: crypto.randomUUID() },
        );
      return toChat(record);
    },

    async listChats(caller, query = {}) {
      const { limit, cursor } = parseListChatsInput(query);
      const page: QueryPage<ChatData> = await store.asCaller(caller).query<ChatData>(AI_CHATS, {
        orderBy: { field: 'createdAt', direction: 'desc' },
        limit: limit ?? 20,
        ...(cursor ? { cursor } : {}),
      });
      return { chats: page.records.map(toChat), nextCursor: page.nextCursor };
    },

    async getChat(caller, chatId) {
      const chat = await ownedChat(caller, chatId);
      const access = store.asCaller(caller);
      const messages =
        runtime.historyMode === 'tree' ? await readActivePath(access, chatId, chat.data.activeLeafId) : (await loadChatMessages(access, chatId)).map(toWireMessage);
      const signed = messages.map((message) => withContentUrls(message, attachments.urlFor));
      return { chat: toChat(chat), messages: await attachFeedback(access, chatId, signed) };
    },

    async renameChat(caller, chatId, input) {
      const { title } = parseRenameChatInput(input);
      await ownedChat(caller, chatId);
      return toChat(await store.asCaller(caller).update<ChatData>(AI_CHATS, chatId, { title, titleSource: 'user' }));
    },

    async deleteChat(caller, chatId) {
      await ownedChat(caller, chatId);
      let dropped: AttachmentRow[] = [];
      const messages = await store.asServer().transaction(async (tx) => {
        // The chat row first: in SQL drivers that waits for a turn being saved (it holds the row), so the
        // messages deleted next include that turn's. A delete that lost the race to another one answers as
        // any missing chat does (never the store's own wording).
        await tx.delete(AI_CHATS, chatId).catch((error: unknown) => {
          throw ChatwireError.is(error, 'NOT_FOUND') ? new ChatwireError('NOT_FOUND', CHAT_NOT_FOUND) : error;
        });
        const count = await tx.deleteWhere(AI_MESSAGES, { chatId });
        await tx.deleteWhere(AI_TURNS, { chatId });
        await tx.deleteWhere(AI_FEEDBACK, { chatId });
        await tx.deleteWhere(AI_SHARES, { chatId });
        dropped = await deleteChatAttachments(tx, chatId, attachments.blobs);
        return count;
      });
      await attachments.dropBlobs(dropped);
      return { chatId, messages };
    },

    async switchBranch(caller, chatId, input) {
      await ownedChat(caller, chatId);
      if (runtime.historyMode !== 'tree') throw new ChatwireError('NOT_FOUND', 'Branches are off (history: linear)');
      const switched = await switchBranch({ store, leaseTtlMs: runtime.leaseTtlMs, report: (error) => onError(error, { stage: 'lease', chatId, userId: caller.userId }) }, chatId, input);
      return { chat: toChat(switched.chat), messages: await attachFeedback(store.asCaller(caller), chatId, switched.messages) };
    },

    async streamTurn(caller, body, turnOptions = {}) {
      const input = parseTurnInput(body);
      const { modelId, provider } = models.resolve(input.modelId);
      const authToken = turnOptions.authToken;
      const model = models.languageModel(modelId, authToken ? { authToken } : {});
      const turn = await turns.start({ caller, input, model: { modelId, provider, model }, authToken }, turnOptions.signal);
      return { assistantMessageId: turn.id, modelId, stream: turn.output.response };
    },

    async listModels() {
      // Every caller may use every available model of the allow-list.
      return models
        .list()
        .filter((entry) => entry.available)
        .map((entry) => ({ id: entry.modelId, provider: entry.provider, label: entry.label, inputs: attachments.inputsFor(entry.modelId, entry.provider) }));
    },

    async stopTurn(caller, chatId) {
      await ownedChat(caller, chatId);
      return turns.stop(chatId);
    },

    async resumeTurn(caller, chatId, resumeOptions = {}) {
      await ownedChat(caller, chatId);
      const attached = await turns.attach(chatId, resumeOptions.signal);
      return attached && { assistantMessageId: attached.turnId, stream: attached.stream };
    },

    async usage(caller, query = {}) {
      return { usage: await readUsage(store, caller.userId, parseUsageQuery(query)) };
    },

    async setFeedback(caller, chatId, messageId, input) {
      await ownedChat(caller, chatId);
      return feedback.set(caller.userId, chatId, messageId, input);
    },

    async deleteFeedback(caller, chatId, messageId) {
      await ownedChat(caller, chatId);
      return feedback.remove(caller.userId, chatId, messageId);
    },

    sharing: shares !== null,

    async createShare(caller, chatId, input) {
      if (!shares) throw sharingOff();
      await ownedChat(caller, chatId);
      return shares.create(caller.userId, chatId, input);
    },

    async revokeShare(caller, shareId) {
      if (!shares) throw sharingOff();
      return shares.revoke(caller.userId, shareId);
    },

    async readShare(token, clientKey) {
      if (!shares) throw sharingOff();
      return shares.read(token, clientKey);
    },

    listTools(caller) {
      return listOfferedTools(tools, caller, store.asCaller(caller), (error) => onError(error, { stage: 'tool', userId: caller.userId }));
    },
  };
}
