import type { BranchPosition } from '@chatwire/client';
import { el } from './element.js';

/**
 * "‹ n/m ›" under a message that has other versions (tree history: an edit or a regenerate kept the earlier
 * ones). The arrows are buttons named "Previous version" and "Next version", disabled at either end; each
 * carries the sibling's id in `data-target` and `data-action="switch-branch"`. Null for a single version.
 */
export function renderBranchSwitcher(branch: BranchPosition | undefined, disabled: boolean): HTMLElement | null {
  if (!branch || branch.count < 2) return null;
  const arrow = (label: string, text: string, target: string | null) =>
    el('button', {
      type: 'button',
      class: 'ghost small',
      'aria-label': label,
      'data-action': 'switch-branch',
      'data-target': target ?? undefined,
      disabled: target === null || disabled ? '' : undefined,
    }, text);
  return el(
    'div',
    { class: 'branch-switcher', role: 'group', 'aria-label': 'Versions' },
    arrow('Previous version', '‹', branch.prevId),
    el('span', { class: 'branch-position' }, `${branch.index + 1}/${branch.count}`),
    arrow('Next version', '›', branch.nextId),
  );
}
