import { createChatClient, isChatwireClientError, type SharedChat } from '@chatwire/client';
import type { PageConfig } from '../create-site-handler.js';
import { byId, el } from './element.js';
import { renderMarkdown } from './render-markdown.js';

/**
 * The read-only view of a shared chat at `/shared/<token>`: no sign-in, no composer, no actions. Answers are
 * Markdown through the same sanitizer as the chat page; tool calls show by name only (that is all a share
 * holds).
 */
const title = byId('shared-title');
const meta = byId('shared-meta');
const error = byId('error');
const list = byId('messages');

function render(shared: SharedChat): void {
  title.textContent = shared.share.title;
  document.title = `${shared.share.title} · shared chat`;
  const when = new Date(shared.share.createdAt).toLocaleString();
  meta.textContent = `A copy shared on ${when}${shared.share.expiresAt ? `, until ${new Date(shared.share.expiresAt).toLocaleString()}` : ''}.`;
  list.replaceChildren(
    ...shared.messages.map((message, index) => {
      const isUser = message.role === 'user';
      const item = el('article', { class: `message ${message.role}`, 'aria-label': isUser ? 'You' : 'Assistant', 'data-id': message.id });
      if (isUser) {
        item.append(el('div', { class: 'bubble' }, el('p', { class: 'plain' }, message.content)));
        return item;
      }
      message.parts.forEach((part, at) => {
        if (part.type === 'tool') item.append(el('p', { class: 'tool-call shared-tool' }, `Tool ${part.toolName}`));
        else if (part.text.trim() !== '') item.append(el('div', { class: 'markdown' }, renderMarkdown(part.text, `s-${index}-${at}-`)));
      });
      return item;
    }),
  );
}

async function show(): Promise<void> {
  const config = (await (await fetch('/config.json')).json()) as PageConfig;
  const token = decodeURIComponent(location.pathname.slice('/shared/'.length));
  const client = createChatClient({ baseUrl: config.basePath, getToken: () => null });
  try {
    render(await client.getShared(token));
  } catch (failure) {
    title.textContent = 'Shared chat';
    error.hidden = false;
    error.textContent = isChatwireClientError(failure, 'NOT_FOUND')
      ? 'This link does not exist or no longer works.'
      : isChatwireClientError(failure, 'RATE_LIMITED')
        ? 'Too many requests; try again in a minute.'
        : `Could not load the shared chat: ${failure instanceof Error ? failure.message : String(failure)}`;
  }
}

void show();
