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
import { createChatSearch, revealMessage } from './create-chat-search.js';
import { createFrameScheduler } from './create-frame-scheduler.js';
import { createMessageList } from './create-message-list.js';
import { createTurnRoutes, type TurnStream } from './create-turn-routes.js';
import { byId, el } from './element.js';
import { createAttachmentPicker } from './attachment-picker.js';
import { fillModelPicker } from './fill-model-picker.js';
import { loadLastChat, saveLastChat } from './last-chat.js';
import type { MessageView } from './render-message.js';
import { loadSession, saveSession, signIn, type Session } from './session.js';
import { rateAnswer } from './rate-answer.js';
import { setUpShareChat } from './share-chat.js';
import { assistantFromStored, pendingApprovalsOf } from './tool-approvals.js';

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
  messages: byId('messages'),
  composer: byId<HTMLFormElement>('composer'),
  model: byId<HTMLSelectElement>('model'),
  send: byId<HTMLButtonElement>('send'),
  stop: byId<HTMLButtonElement>('stop'),
};

/** An edit or regenerate in flight: the stored messages it replaces are hidden until it is stored. */
interface Rewrite {
  trigger: 'edit' | 'regenerate';
  userMessageId: string;
}

/** The turn this page is streaming (sent here, or resumed after a reload). */
interface Running {
  chatId: string;
  controller: AbortController;
  stopRequested: boolean;
  rewrite: Rewrite | null;
  /** A resumed turn: its question is not stored yet and this page never saw it. */
  questionUnknown: boolean;
}

/** The server's title for a chat nobody named yet. */
const UNTITLED = 'New chat';
/** When to look for a generated title after a turn of an untitled chat. */
const TITLE_CHECKS_MS = [1_000, 2_500, 5_000, 10_000];

/** How long a stopped turn may take to end its stream before the page stops reading it. */
const STOP_GRACE_MS = 5_000;

const config = (await (await fetch('/config.json')).json()) as PageConfig;
let session: Session = loadSession();
let chats: ChatRecord[] = [];
let currentId: string | null = new URLSearchParams(location.hash.slice(1)).get('chat');
let stored: MessageRecord[] = [];
let pending: PendingTurn | null = null;
let running: Running | null = null;
/** The user message being edited in place. */
let editingId: string | null = null;
/** The placeholder id of a resumed turn's question, which this page never saw: not shown. */
let unknownQuestionId: string | null = null;
/** Answers stopped on this page (their stored rows may not say so on older servers). */
const stoppedHere = new Set<string>();
/** Chats whose generated title was already waited for (once per chat and page load). */
const titleWatched = new Set<string>();
/** The next render scrolls to the last message (a chat was opened or the user sent a message). */
let followEnd = false;

const connection = { baseUrl: config.basePath, getToken: () => session.token };
const client = createChatClient(connection);
const picker = createAttachmentPicker(
  byId<HTMLButtonElement>('attach'),
  byId<HTMLInputElement>('attach-input'),
  byId('attachment-previews'),
  ui.composer.elements.namedItem('content') as HTMLTextAreaElement,
);
const turnRoutes = createTurnRoutes(connection);
const messageList = createMessageList(ui.messages);
const frames = createFrameScheduler(renderConversation);
const shareChat = setUpShareChat({
  button: byId<HTMLButtonElement>('share'),
  panel: byId('share-panel'),
  link: byId<HTMLInputElement>('share-link'),
  status: byId('share-status'),
  client,
  chatId: () => currentId,
  onError: showError,
});

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
    const signOut = el('button', { type: 'button', title: `Signed in as ${session.userId ?? 'unknown'}` }, 'Sign out');
    signOut.onclick = () => setSession(saveSession(null));
    ui.session.append(el('span', { id: 'user' }, session.userId ?? 'signed in'), signOut);
    act(loadChats)();
    void loadModels();
  }
}

/** The "Model" choices from `GET /models`; a server without that route keeps the list from /config.json. */
async function loadModels(): Promise<void> {
  const listed = await turnRoutes.listModels().catch(() => null);
  if (listed && listed.models.length > 0) fillModelPicker(ui.model, listed.models, listed.defaultModelId ?? config.defaultModelId);
}

async function loadChats(): Promise<void> {
  chats = (await client.listChats({ limit: 50 })).chats;
  renderChats();
  const wanted = currentId ?? loadLastChat(session.userId);
  await openChat(wanted && chats.some((c) => c.recordId === wanted) ? wanted : null);
}

function renderChats(): void {
  ui.chats.replaceChildren(
    ...chats.map((chat) => {
      const current = chat.recordId === currentId;
      const open = el('a', { href: `#chat=${encodeURIComponent(chat.recordId)}`, title: chat.title, ...(current ? { 'aria-current': 'page' } : {}) }, chat.title);
      open.onclick = (event) => {
        event.preventDefault();
        setDrawer(false);
        act(() => openChat(chat.recordId))();
      };
      return el('li', { 'data-id': chat.recordId }, open);
    }),
  );
}

async function openChat(chatId: string | null): Promise<void> {
  const switching = chatId !== currentId;
  if (switching) {
    running?.controller.abort();
    editingId = null;
    shareChat.reset();
  }
  currentId = chatId;
  saveLastChat(session.userId, chatId);
  history.replaceState(null, '', chatId ? `#chat=${encodeURIComponent(chatId)}` : location.pathname);
  if (switching || !running) pending = null;
  stored = chatId ? (await client.getChat(chatId)).messages : [];
  renderChats();
  followEnd = true;
  frames.flush();
  if (chatId && !running) await resumeRunningTurn(chatId);
}

/** Everything about the open chat; called through `frames` so a streaming reply renders once per frame. */
function renderConversation(): void {
  const chat = chats.find((c) => c.recordId === currentId);
  ui.chatHeader.hidden = ui.composer.hidden = chat === undefined;
  ui.empty.hidden = chat !== undefined;
  ui.chatTitle.textContent = chat?.title ?? '';
  ui.messages.hidden = chat === undefined;
  messageList.update(chat ? conversation() : [], { scrollToEnd: followEnd });
  followEnd = false;
  ui.messages.setAttribute('aria-busy', String(running !== null));
  ui.send.disabled = running !== null;
  ui.stop.hidden = running === null;
  ui.stop.disabled = running?.stopRequested ?? false;
}

/** Stored messages (less those an edit or regenerate in flight replaces) and the turn in flight, with actions. */
function conversation(): MessageView[] {
  let base = stored;
  const rewrite = running?.rewrite;
  if (rewrite) {
    const at = stored.findIndex((m) => m.recordId === rewrite.userMessageId);
    if (at >= 0) base = stored.slice(0, rewrite.trigger === 'edit' ? at : at + 1);
  }
  let merged = mergeMessages(base, pending);
  if (pending && pending.userMessageId === unknownQuestionId) merged = merged.filter((m) => m.id !== unknownQuestionId);
  const stopped = new Set(stoppedHere);
  for (const record of stored) if ((record.data as { status?: unknown }).status === 'stopped') stopped.add(record.recordId);
  const idle = running === null;
  const ratings = new Map(stored.filter((m) => m.data.role === 'assistant').map((m) => [m.recordId, m.feedback?.rating ?? null]));
  const branches = new Map(stored.map((m) => [m.recordId, m.branch]));
  return merged.map((message, index): MessageView => {
    const view: MessageView = { ...message };
    if (!message.pending && ratings.has(message.id)) view.feedback = ratings.get(message.id)!;
    if (stopped.has(message.id)) view.stopped = true;
    const branch = message.pending ? undefined : branches.get(message.id);
    if (branch) Object.assign(view, { branch, branchLocked: !idle });
    if (idle && !message.pending && message.role === 'user') view.actions = ['edit'];
    if (idle && !message.pending && message.role === 'assistant' && index === merged.length - 1) view.actions = ['regenerate'];
    const approvals = idle && !message.pending ? pendingApprovalsOf(stored.find((m) => m.recordId === message.id)) : [];
    if (approvals.length > 0) view.approvals = approvals.map((a) => (decisions.has(a.toolCallId) ? { ...a, decided: true } : a));
    if (message.id === editingId && message.role === 'user') view.editing = true;
    return view;
  });
}

/**
 * The chat list as a drawer on narrow screens (the "Chats" button); always shown on wide ones. Opening it
 * moves the focus into it; closing it with the focus inside gives the focus back to the button.
 */
function setDrawer(open: boolean): void {
  const wasOpen = ui.workspace.dataset.drawer === 'open';
  ui.workspace.dataset.drawer = open ? 'open' : 'closed';
  ui.toggleChats.setAttribute('aria-expanded', String(open));
  ui.backdrop.hidden = !open;
  if (ui.toggleChats.offsetParent === null || open === wasOpen) return; // wide screen: no drawer
  if (open) ui.newChat.focus();
  else if (byId('sidebar').contains(document.activeElement)) ui.toggleChats.focus();
}

/** A new chat is untitled ("New chat" on the server) until the user renames it or a title is generated. */
async function createChat(): Promise<void> {
  const chat = await client.createChat();
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

/**
 * Streams one turn into the page: shows it while it runs, then reloads the stored messages. An edit or
 * regenerate that was not stored (failed, aborted) changes nothing: the old messages come back.
 */
async function streamTurn(options: {
  chatId: string;
  turn: PendingTurn;
  start: (signal: AbortSignal) => Promise<TurnStream>;
  rewrite?: Rewrite;
  controller?: AbortController;
  questionUnknown?: boolean;
  /** The live state to start from (a continued answer keeps what it showed). */
  seed?: (assistantMessageId: string) => ReturnType<typeof createAssistantMessage>;
}): Promise<void> {
  const { chatId, turn } = options;
  const run: Running = {
    chatId,
    controller: options.controller ?? new AbortController(),
    stopRequested: false,
    rewrite: options.rewrite ?? null,
    questionUnknown: options.questionUnknown ?? false,
  };
  running = run;
  pending = turn;
  unknownQuestionId = run.questionUnknown ? turn.userMessageId : null;
  editingId = null;
  followEnd = true;
  frames.flush();
  try {
    const stream = await options.start(run.controller.signal);
    turn.assistant = options.seed?.(stream.assistantMessageId) ?? createAssistantMessage(stream.assistantMessageId);
    for await (const action of stream.actions) {
      turn.assistant = reduceAssistantMessage(turn.assistant, action);
      if (currentId === chatId) frames.schedule();
    }
    if (turn.assistant.status === 'error') showError(new Error(turn.assistant.errorText ?? 'The model failed'));
  } catch (error) {
    if (pending === turn && !turn.assistant) pending = null; // rejected before streaming: nothing to show
    throw error;
  } finally {
    if (run.stopRequested && turn.assistant?.id) stoppedHere.add(turn.assistant.id);
    if (running === run) running = null;
    if (currentId === chatId) {
      stored = (await client.getChat(chatId).catch(() => ({ messages: stored }))).messages;
      const kept = stored.some((m) => m.recordId === turn.assistant?.id);
      // Stored rows replace a resumed turn; a rewrite that was not stored leaves the old messages as they were.
      if (pending === turn && ((run.questionUnknown && kept) || (run.rewrite && !kept))) pending = null;
      // Once its answer is stored the stored path is the whole turn (a tree edit stores its question under a new id).
      if (pending === turn && kept) pending = null;
      frames.flush();
    }
    watchForTitle(chatId);
  }
}

/**
 * A server with generated titles (`CHATWIRE_AUTO_TITLES=1`) names an untitled chat shortly after its first
 * turn, off the turn's path: the chat list is read again a few times until the title changes.
 */
function watchForTitle(chatId: string): void {
  if (titleWatched.has(chatId) || chats.find((c) => c.recordId === chatId)?.title !== UNTITLED) return;
  titleWatched.add(chatId);
  let tries = 0;
  const check = async (): Promise<void> => {
    const fresh = await client.getChat(chatId).catch(() => null);
    if (!fresh) return;
    if (fresh.chat.title !== UNTITLED) {
      chats = chats.map((c) => (c.recordId === chatId ? fresh.chat : c));
      renderChats();
      frames.flush();
    } else if (++tries < TITLE_CHECKS_MS.length) {
      setTimeout(() => void check(), TITLE_CHECKS_MS[tries]);
    }
  };
  setTimeout(() => void check(), TITLE_CHECKS_MS[0]);
}

async function sendMessage(content: string, files: readonly File[] = []): Promise<void> {
  if (!currentId || running) return;
  const chatId = currentId;
  const turn: PendingTurn = { userMessageId: crypto.randomUUID(), content };
  const modelId = ui.model.value;
  await streamTurn({
    chatId,
    turn,
    start: async (signal) => {
      // Each file is uploaded first (its type is checked then); the message names them by id.
      const attachments = [];
      for (const file of files) attachments.push((await client.uploadAttachment(file, { signal })).attachmentId);
      const sent = await client.sendMessage({ chatId, content, modelId, userMessageId: turn.userMessageId, signal, attachments });
      return { assistantMessageId: sent.assistantMessageId, actions: sent.actions };
    },
  });
}

/** `trigger: "edit"`: the model answers the history before the message plus its new text. */
async function editMessage(userMessageId: string, content: string): Promise<void> {
  if (!currentId || running) return;
  const chatId = currentId;
  const modelId = ui.model.value;
  await streamTurn({
    chatId,
    turn: { userMessageId, content },
    rewrite: { trigger: 'edit', userMessageId },
    start: (signal) => turnRoutes.startTurn({ chatId, trigger: 'edit', userMessageId, content, modelId, signal }),
  });
}

/** `trigger: "regenerate"`: a new answer to the last user message. */
async function regenerate(): Promise<void> {
  if (!currentId || running) return;
  const chatId = currentId;
  const question = stored.findLast((m) => m.data.role === 'user');
  if (!question) return;
  const userMessageId = question.recordId;
  const modelId = ui.model.value;
  await streamTurn({
    chatId,
    turn: { userMessageId, content: question.data.content },
    rewrite: { trigger: 'regenerate', userMessageId },
    start: (signal) => turnRoutes.startTurn({ chatId, trigger: 'regenerate', userMessageId, modelId, signal }),
  });
}

/** The user's answers to the calls the last answer waits on, sent once every call has one. */
const decisions = new Map<string, boolean>();

/**
 * "Approve" / "Deny" on a call the last answer waits on: once every call of that answer is answered, `POST
 * /chat` with `trigger: "approval"` continues the same answer (shown in place while it streams).
 */
async function answerApproval(messageId: string, toolCallId: string, approved: boolean): Promise<void> {
  if (!currentId || running) return;
  const chatId = currentId;
  const at = stored.findIndex((m) => m.recordId === messageId);
  const requests = pendingApprovalsOf(stored[at]);
  if (!requests.some((r) => r.toolCallId === toolCallId)) return;
  decisions.set(toolCallId, approved);
  if (!requests.every((r) => decisions.has(r.toolCallId))) return frames.flush();
  const approvals = requests.map((r) => ({ toolCallId: r.toolCallId, approved: decisions.get(r.toolCallId)! }));
  decisions.clear();
  const question = stored.slice(0, at).findLast((m) => m.data.role === 'user');
  if (!question) return;
  const record = stored[at];
  const modelId = ui.model.value;
  await streamTurn({
    chatId,
    turn: { userMessageId: question.recordId, content: question.data.content },
    rewrite: { trigger: 'regenerate', userMessageId: question.recordId },
    seed: (id) => assistantFromStored(id, record),
    start: (signal) => turnRoutes.startTurn({ chatId, trigger: 'approval', approvals, modelId, signal }),
  });
}

/** After a reload: attaches to the chat's running turn, if any (`GET /chats/:id/stream`, 204 when none). */
async function resumeRunningTurn(chatId: string): Promise<void> {
  const controller = new AbortController();
  const stream = await turnRoutes.resumeTurn(chatId, controller.signal).catch(() => null);
  if (!stream) return;
  if (currentId !== chatId || running) {
    controller.abort();
    return;
  }
  await streamTurn({
    chatId,
    turn: { userMessageId: `resumed:${stream.assistantMessageId}`, content: '' },
    start: async () => stream,
    controller,
    questionUnknown: true,
  });
}

/**
 * "Stop": asks the server to stop the turn (`POST /chats/:id/stop`), which ends the stream normally and stores
 * the partial answer. A server without the route, or with nothing running there, gets the connection closed.
 */
async function stopTurn(): Promise<void> {
  const run = running;
  if (!run || run.stopRequested) return;
  run.stopRequested = true;
  frames.flush();
  const closeConnection = (): void => {
    if (running === run) run.controller.abort();
  };
  try {
    const result = await turnRoutes.stopTurn(run.chatId);
    if (result?.stopped) setTimeout(closeConnection, STOP_GRACE_MS);
    else closeConnection();
  } catch (error) {
    closeConnection();
    throw error;
  }
}

/** Another version of a message: the server makes the newest path under it active, so a reload shows it too. */
async function switchBranch(messageId: string): Promise<void> {
  const chatId = currentId;
  if (!chatId) return;
  const { messages } = await client.switchBranch(chatId, messageId);
  if (currentId === chatId) stored = messages;
  frames.flush();
}

/** A thumb on a stored answer: set, change or take back its rating; the stored copy shows it at once. */
async function rate(messageId: string, rating: 'up' | 'down'): Promise<void> {
  const chatId = currentId;
  const message = stored.find((m) => m.recordId === messageId);
  if (!chatId || !message) return;
  const updated = await rateAnswer(client, chatId, message, rating);
  if (currentId === chatId) stored = stored.map((m) => (m.recordId === messageId ? updated : m));
  frames.flush();
}

/** Edit, Cancel, Send edit and Regenerate on messages: one set of listeners, as messages are re-rendered. */
function handleMessageActions(): void {
  ui.messages.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.('button[data-action]');
    const id = button?.closest('article')?.getAttribute('data-id');
    if (!button || !id) return;
    const action = button.getAttribute('data-action');
    if (action === 'edit' && !running) {
      editingId = id;
      frames.flush();
      ui.messages.querySelector<HTMLTextAreaElement>('form[data-action="send-edit"] textarea')?.focus();
    }
    if (action === 'cancel-edit') {
      editingId = null;
      frames.flush();
    }
    if (action === 'regenerate') act(regenerate)();
    const target = button.getAttribute('data-target');
    if (action === 'switch-branch' && target && !running) act(() => switchBranch(target))();
    const toolCallId = button.getAttribute('data-tool-call-id');
    if ((action === 'approve' || action === 'deny') && toolCallId) act(() => answerApproval(id, toolCallId, action === 'approve'))();
    if (action === 'rate-up' || action === 'rate-down') act(() => rate(id, action === 'rate-up' ? 'up' : 'down'))();
  });
  ui.messages.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement;
    if (form.getAttribute('data-action') !== 'send-edit') return;
    event.preventDefault();
    const id = form.closest('article')?.getAttribute('data-id');
    const content = String(new FormData(form).get('content') ?? '').trim();
    if (id && content) act(() => editMessage(id, content))();
  });
  ui.messages.addEventListener('keydown', (event) => {
    const box = event.target as HTMLElement;
    const form = box.closest?.('form[data-action="send-edit"]') as HTMLFormElement | null;
    if (!form) return;
    if (event.key === 'Escape') {
      editingId = null;
      frames.flush();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
}

function setUp(): void {
  ui.demoBadge.hidden = !config.demoModel;
  byId('share').hidden = !config.sharing;
  byId('dev-name').hidden = !config.devSignIn;
  byId('paste-token').hidden = config.devSignIn;
  byId('sign-in-hint').textContent = config.devSignIn
    ? 'Dev mode: any name signs you in (the same name is the same user).'
    : 'Paste a JWT issued by your auth system.';
  fillModelPicker(ui.model, config.models, config.defaultModelId);

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
    const files = picker.files();
    if (!content && files.length === 0) return;
    input.value = '';
    picker.clear();
    act(() => sendMessage(content, files))();
  };
  // Enter sends, Shift+Enter starts a new line (not while an input method is composing a character).
  ui.composer.onkeydown = (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.target instanceof HTMLTextAreaElement) {
      event.preventDefault();
      if (!ui.send.disabled) ui.composer.requestSubmit();
    }
  };
  ui.stop.onclick = act(stopTurn);
  ui.toggleChats.onclick = () => setDrawer(ui.toggleChats.getAttribute('aria-expanded') !== 'true');
  ui.backdrop.onclick = () => setDrawer(false);
  ui.newChat.addEventListener('click', () => setDrawer(false));
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') setDrawer(false);
  });
  copyCodeOnClick(ui.messages);
  createChatSearch({
    input: byId<HTMLInputElement>('search'),
    results: byId<HTMLUListElement>('search-results'),
    chatList: ui.chats,
    search: (q, { signal }) => client.search(q, { limit: 20, signal }),
    open: (chatId, messageId) => {
      setDrawer(false);
      act(async () => {
        await openChat(chatId);
        if (messageId) revealMessage(ui.messages, messageId);
      })();
    },
    onError: showError,
  });
  handleMessageActions();
  setDrawer(false);
}

setUp();
setSession(session);
