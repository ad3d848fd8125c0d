import { el } from './element.js';
import type { ModelChoice } from './create-turn-routes.js';

/**
 * Fills the "Model" select with `models` (unavailable ones shown but disabled) and selects `preferred` when it
 * is available, else the first available model. Keeps the user's current choice when it is still offered.
 */
export function fillModelPicker(select: HTMLSelectElement, models: readonly ModelChoice[], preferred: string | undefined): void {
  const current = select.value;
  select.replaceChildren(
    ...models.map((m) =>
      el('option', { value: m.modelId, ...(m.available ? {} : { disabled: '' }) }, m.provider ? `${m.modelId} (${m.provider})` : m.modelId),
    ),
  );
  const usable = (id: string | undefined) => models.find((m) => m.modelId === id && m.available)?.modelId;
  select.value = usable(current) ?? usable(preferred) ?? models.find((m) => m.available)?.modelId ?? preferred ?? '';
}
