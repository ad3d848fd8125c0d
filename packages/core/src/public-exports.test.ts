import { readFileSync } from 'node:fs';
import { expect, it, vi } from 'vitest';

// Importing every entry's sources takes seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

// The public surface of @chatwire/core: a change here is a change for every user, so it shows in review.

/** Every name `index.ts` exports, values and types alike. */
function exportedNames(): string[] {
  const source = readFileSync(new URL('./index.ts', import.meta.url), 'utf8');
  const names: string[] = [];
  for (const [, list] of source.matchAll(/export (?:type )?\{([^}]*)\}/g)) {
    for (const item of list!.split(',')) {
      const name = item.trim().replace(/^type /, '').split(' as ').pop()!.trim();
      if (name) names.push(name);
    }
  }
  return names.sort();
}

it('exports exactly these values', async () => {
  const api = await import('./index.js');
  expect(Object.keys(api).sort()).toEqual([
    'AI_CHATS',
    'AI_MESSAGES',
    'AI_TURNS',
    'API_SCHEMAS',
    'BUILT_IN_TOOLS',
    'DEFAULT_MODEL_ID',
    'MODEL_ALLOW_LIST',
    'READ_ONLY_TOOLS',
    'attachments',
    'createChatService',
    'createDemoModel',
    'createModelRegistry',
    'createToolCatalog',
    'hub',
    'modelOptionsFromEnv',
    'userMessageRecordId',
  ]);
});

it('exports at most 40 names, types included', () => {
  const names = exportedNames();
  expect(names.length).toBeLessThanOrEqual(40);
  expect(names).toEqual([...new Set(names)]);
});
