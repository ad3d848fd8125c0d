import {
  createAssistantMessage,
  createChatClient,
  isChatwireClientError,
  mergeMessages,
  reduceAssistantMessage,
  type ChatRecord,
  type MessageRecord,
  type PendingTurn,
} from '@chatwire/client';
import type { PageConfig } from '../create-site-handler.js';
import { byId, el } from './element.js';
import { renderMessage } from './render-message.js';
import { loadSession, saveSession, signIn, type Session } from './session.js';

const ui = {
  error: byId<HTMLParagraphElement>('error'),
  session: byId('session'),
  demoBadge: byId('demo-badge'),
  signIn: byId<HTMLFormElement>('sign-in'),
  workspace: byId('workspace'),
  chats: byId<HTMLUListElement>('chats'),
  newChat: byId<HTMLButtonElement>('new-chat'),
  chatHeader: byId('chat-header'),
  chatTitle: byId('chat-title'),
  renameForm: byId<HTMLFormElement>('rename-form'),
  empty: byId('empty'),
  messages: byId<HTMLOListElement>('messages'),
  composer: byId<HTMLFormElement>('composer'),
  model: byId<HTMLSelectElement>('model'),
  send: byId<HTMLButtonElement>('send'),
  stop: byId<HTMLButtonElement>('stop'),
};

const config = (await (await fetch('/config.json')).json()) as PageConfig;
let session: Session = loadSession();
let chats: ChatRecord[] = [];
let currentId: string | null = new URLSearchParams(location.hash.slice(1)).get('chat');
let stored: MessageRecord[] = [];
let pending: PendingTurn | null = null;
let running: AbortController | null = null;

const client = createChatClient({ baseUrl: config.basePath, getToken: () => session.token });

/** Shows an error to the user; an expired or foreign token signs out. */
function showError(error: unknown): void {
  if ((error as { name?: unknown })?.name === 'AbortError') return;
  const message = error instanceof Error ? error.message : String(error);
  ui.error.textContent = isChatwireClientError(error) ? `${error.code}: ${message}` : message;
  ui.error.hidden = false;
  if (isChatwireClientError(error, 'UNAUTHORIZED')) setSession(saveSession(null));
}

/** Runs a user action, reporting its failure instead of throwing. */
function act(fn: () => Promise<void>): () => void {
  return () => {
    ui.error.hidden = true;
    fn().catch(showError);
  };
}

function setSession(next: Session): void {
  session = next;
  ui.signIn.hidden = session.token !== null;
  ui.workspace.hidden = session.token === null;
  ui.session.replaceChildren();
  if (session.token) {
    const signOut = el('button', { type: 'button' }, 'Sign out');
    signOut.onclick = () => setSession(saveSession(null));
    ui.session.append(el('span', { id: 'user' }, session.userId ?? 'signed in'), signOut);
    act(loadChats)();
  }
}

async function loadChats(): Promise<void> {
  chats = (await client.listChats({ limit: 50 })).chats;
  renderChats();
  if (currentId && chats.some((c) => c.recordId === currentId)) await openChat(currentId);
  else await openChat(null);
}

function renderChats(): void {
  ui.chats.replaceChildren(
    ...chats.map((chat) => {
      const open = el('button', { type: 'button', title: chat.title }, chat.title);
      open.onclick = act(() => openChat(chat.recordId));
      return el('li', { 'data-id': chat.recordId, 'aria-current': String(chat.recordId === currentId) }, open);
    }),
  );
}

async function openChat(chatId: string | null): Promise<void> {
  if (chatId !== currentId) running?.abort();
  currentId = chatId;
  history.replaceState(null, '', chatId ? `#chat=${encodeURIComponent(chatId)}` : location.pathname);
  pending = null;
  stored = chatId ? (await client.getChat(chatId)).messages : [];
  renderChats();
  renderConversation();
}

function renderConversation(): void {
  const chat = chats.find((c) => c.recordId === currentId);
  ui.chatHeader.hidden = ui.composer.hidden = chat === undefined;
  ui.empty.hidden = chat !== undefined;
  ui.chatTitle.textContent = chat?.title ?? '';
  ui.messages.replaceChildren(...(chat ? mergeMessages(stored, pending).map(renderMessage) : []));
  ui.messages.scrollTop = ui.messages.scrollHeight;
  ui.send.disabled = running !== null;
  ui.stop.hidden = running === null;
}

async function createChat(): Promise<void> {
  const chat = await client.createChat({ title: `Chat ${chats.length + 1}` });
  chats.unshift(chat);
  await openChat(chat.recordId);
}

async function renameChat(title: string): Promise<void> {
  if (!currentId) return;
  const renamed = await client.renameChat(currentId, title);
  chats = chats.map((c) => (c.recordId === renamed.recordId ? renamed : c));
  renderChats();
  renderConversation();
}

async function deleteChat(): Promise<void> {
  const chat = chats.find((c) => c.recordId === currentId);
  if (!chat || !confirm(`Delete "${chat.title}" and its messages?`)) return;
  await client.deleteChat(chat.recordId);
  chats = chats.filter((c) => c.recordId !== chat.recordId);
  await openChat(null);
}

async function sendMessage(content: string): Promise<void> {
  if (!currentId || running) return;
  const chatId = currentId;
  const turn: PendingTurn = { userMessageId: crypto.randomUUID(), content };
  pending = turn;
  running = new AbortController();
  renderConversation();
  try {
    const sent = await client.sendMessage({
      chatId,
      content,
      modelId: ui.model.value,
      userMessageId: turn.userMessageId,
      signal: running.signal,
    });
    turn.assistant = createAssistantMessage(sent.assistantMessageId);
    for await (const action of sent.actions) {
      turn.assistant = reduceAssistantMessage(turn.assistant, action);
      if (currentId === chatId) renderConversation();
    }
    if (turn.assistant.status === 'error') showError(new Error(turn.assistant.errorText ?? 'The model failed'));
  } catch (error) {
    if (pending === turn && !turn.assistant) pending = null; // rejected before streaming: nothing to show
    throw error;
  } finally {
    running = null;
    if (currentId === chatId) {
      stored = (await client.getChat(chatId).catch(() => ({ messages: stored }))).messages;
      renderConversation();
    }
  }
}

function setUp(): void {
  ui.demoBadge.hidden = !config.demoModel;
  byId('dev-name').hidden = !config.devSignIn;
  byId('paste-token').hidden = config.devSignIn;
  byId('sign-in-hint').textContent = config.devSignIn
    ? 'Dev mode: any name signs you in (the same name is the same user).'
    : 'Paste a JWT issued by your auth system.';
  ui.model.replaceChildren(
    ...config.models.map((m) =>
      el('option', { value: m.modelId, ...(m.available ? {} : { disabled: '' }) }, `${m.modelId} (${m.provider})`),
    ),
  );
  ui.model.value = config.defaultModelId;

  ui.signIn.onsubmit = (event) => {
    event.preventDefault();
    const data = new FormData(ui.signIn);
    act(async () => setSession(await signIn(config, { name: String(data.get('name') ?? ''), token: String(data.get('token') ?? '') })))();
  };
  ui.newChat.onclick = act(createChat);
  byId('delete').onclick = act(deleteChat);
  byId('rename').onclick = () => {
    ui.renameForm.hidden = false;
    const input = ui.renameForm.elements.namedItem('title') as HTMLInputElement;
    input.value = ui.chatTitle.textContent ?? '';
    input.focus();
  };
  byId('rename-cancel').onclick = () => void (ui.renameForm.hidden = true);
  ui.renameForm.onsubmit = (event) => {
    event.preventDefault();
    const title = String(new FormData(ui.renameForm).get('title') ?? '');
    ui.renameForm.hidden = true;
    act(() => renameChat(title))();
  };
  ui.composer.onsubmit = (event) => {
    event.preventDefault();
    const input = ui.composer.elements.namedItem('content') as HTMLTextAreaElement;
    const content = input.value.trim();
    if (!content) return;
    input.value = '';
    act(() => sendMessage(content))();
  };
  ui.stop.onclick = () => running?.abort();
}

setUp();
setSession(session);
