import { el } from './element.js';

export type Rating = 'up' | 'down';

/**
 * Thumbs under a stored answer: "Good answer" and "Bad answer", the chosen one `aria-pressed="true"`. The
 * buttons carry `data-action` (`rate-up`, `rate-down`); the page handles them with its one list listener.
 */
export function renderFeedback(rating: Rating | null): HTMLElement {
  const thumb = (value: Rating, label: string, symbol: string) =>
    el(
      'button',
      { type: 'button', class: 'ghost small thumb', 'data-action': `rate-${value}`, 'aria-label': label, title: label, 'aria-pressed': String(rating === value) },
      symbol,
    );
  return el('div', { class: 'message-feedback', role: 'group', 'aria-label': 'Rate this answer' }, thumb('up', 'Good answer', '👍'), thumb('down', 'Bad answer', '👎'));
}
