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
import { copyCodeOnClick } from './copy-code-on-click.js';
import { createFrameScheduler } from './create-frame-scheduler.js';
import { createMessageList } from './create-message-list.js';
import { byId, el } from './element.js';
import { loadSession, saveSession, signIn, type Session } from './session.js';

const ui = {
  error: byId<HTMLParagraphElement>('error'),
  session: byId('session'),
  demoBadge: byId('demo-badge'),
  signIn: byId<HTMLFormElement>('sign-in'),
  workspace: byId('workspace'),
  toggleChats: byId<HTMLButtonElement>('toggle-chats'),
  backdrop: byId('backdrop'),
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
/** The next render scrolls to the last message (a chat was opened or the user sent a message). */
let followEnd = false;

const client = createChatClient({ baseUrl: config.basePath, getToken: () => session.token });
const messageList = createMessageList(ui.messages);
const frames = createFrameScheduler(renderConversation);

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
  ui.toggleChats.hidden = session.token === null;
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
      open.onclick = act(async () => {
        setDrawer(false);
        await openChat(chat.recordId);
      });
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
  followEnd = true;
  frames.flush();
}

/** Everything about the open chat; called through `frames` so a streaming reply renders once per frame. */
function renderConversation(): void {
  const chat = chats.find((c) => c.recordId === currentId);
  ui.chatHeader.hidden = ui.composer.hidden = chat === undefined;
  ui.empty.hidden = chat !== undefined;
  ui.chatTitle.textContent = chat?.title ?? '';
  ui.messages.hidden = chat === undefined;
  messageList.update(chat ? mergeMessages(stored, pending) : [], { scrollToEnd: followEnd });
  followEnd = false;
  ui.messages.setAttribute('aria-busy', String(running !== null));
  ui.send.disabled = running !== null;
  ui.stop.hidden = running === null;
}

/** The chat list as a drawer on narrow screens (the "Chats" button); always shown on wide ones. */
function setDrawer(open: boolean): void {
  ui.workspace.dataset.drawer = open ? 'open' : 'closed';
  ui.toggleChats.setAttribute('aria-expanded', String(open));
  ui.backdrop.hidden = !open;
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
  frames.flush();
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
  followEnd = true;
  frames.flush();
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
      if (currentId === chatId) frames.schedule();
    }
    if (turn.assistant.status === 'error') showError(new Error(turn.assistant.errorText ?? 'The model failed'));
  } catch (error) {
    if (pending === turn && !turn.assistant) pending = null; // rejected before streaming: nothing to show
    throw error;
  } finally {
    running = null;
    if (currentId === chatId) {
      stored = (await client.getChat(chatId).catch(() => ({ messages: stored }))).messages;
      frames.flush();
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
  const usable = config.models.find((m) => m.modelId === config.defaultModelId && m.available) ?? config.models.find((m) => m.available);
  ui.model.value = usable?.modelId ?? config.defaultModelId;

  ui.signIn.onsubmit = (event) => {
    event.preventDefault();
    const data = new FormData(ui.signIn);
    act(async () => setSession(await signIn(config, { name: String(data.get('name') ?? ''), token: String(data.get('token') ?? '') })))();
  };
  ui.newChat.onclick = act(createChat);
  byId('delete').onclick = act(deleteChat);
  const setRenaming = (on: boolean): void => {
    ui.renameForm.hidden = !on;
    ui.chatHeader.toggleAttribute('data-renaming', on);
  };
  byId('rename').onclick = () => {
    setRenaming(true);
    const input = ui.renameForm.elements.namedItem('title') as HTMLInputElement;
    input.value = ui.chatTitle.textContent ?? '';
    input.focus();
  };
  byId('rename-cancel').onclick = () => setRenaming(false);
  ui.renameForm.onsubmit = (event) => {
    event.preventDefault();
    const title = String(new FormData(ui.renameForm).get('title') ?? '');
    setRenaming(false);
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
  // Enter sends, Shift+Enter starts a new line (not while an input method is composing a character).
  ui.composer.onkeydown = (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.target instanceof HTMLTextAreaElement) {
      event.preventDefault();
      if (!ui.send.disabled) ui.composer.requestSubmit();
    }
  };
  ui.stop.onclick = () => running?.abort();
  ui.toggleChats.onclick = () => setDrawer(ui.toggleChats.getAttribute('aria-expanded') !== 'true');
  ui.backdrop.onclick = () => setDrawer(false);
  ui.newChat.addEventListener('click', () => setDrawer(false));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') setDrawer(false);
  });
  copyCodeOnClick(ui.messages);
  setDrawer(false);
}

setUp();
setSession(session);
