import { dynamicTool, jsonSchema, tool, type ToolSet } from 'ai';
import { z } from 'zod';
import type { ProviderToolName } from './replay-fixture.js';

/**
 * Provider-defined tools as the provider packages' `tools.*()` factories build them: the provider runs them
 * itself and streams back both the call and its result.
 */
const PROVIDER_TOOLS: Record<ProviderToolName, { key: string; id: string; args: Record<string, unknown> }> = {
  anthropic_web_search: { key: 'web_search', id: 'anthropic.web_search_20250305', args: { maxUses: 3 } },
  anthropic_code_execution: { key: 'code_execution', id: 'anthropic.code_execution_20250522', args: {} },
  openai_web_search: { key: 'web_search', id: 'openai.web_search', args: {} },
  openai_file_search: { key: 'file_search', id: 'openai.file_search', args: { vectorStoreIds: ['vs_68c2e6f380d8'] } },
  openai_code_interpreter: { key: 'code_interpreter', id: 'openai.code_interpreter', args: {} },
  openai_image_generation: { key: 'image_generation', id: 'openai.image_generation', args: {} },
};

/**
 * The tool set of a replayed turn, identical for chatwire and for the AI SDK run: the app's `weather` (a
 * deterministic answer), `explode` (always throws), `lookup` (a dynamic tool: its input is only known at run
 * time), plus the provider tools the fixture uses.
 */
export function replayToolSet(providerTools: readonly ProviderToolName[]): ToolSet {
  const tools: ToolSet = {
    weather: tool({
      description: 'Current weather of a city.',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, temperatureC: 21 }),
    }),
    explode: tool({
      description: 'Always fails.',
      inputSchema: z.object({}),
      execute: async (): Promise<{ ok: boolean }> => {
        throw new Error('the explode tool always fails');
      },
    }),
    lookup: dynamicTool({
      description: 'Looks a key up in the app settings.',
      inputSchema: jsonSchema<{ key: string }>({ type: 'object', properties: { key: { type: 'string' } }, required: ['key'] }),
      execute: async (input) => ({ key: (input as { key: string }).key, value: 'enabled' }),
    }),
  };
  for (const name of providerTools) {
    const { key, id, args } = PROVIDER_TOOLS[name];
    tools[key] = { type: 'provider-defined', id, name: key, args, inputSchema: jsonSchema({ type: 'object' }) } as ToolSet[string];
  }
  return tools;
}

/** The same tool set as a chatwire tool catalog (the `tools` option of the handler). */
export function replayToolCatalog(providerTools: readonly ProviderToolName[]) {
  return {
    names: Object.keys(replayToolSet(providerTools)),
    forTurn: () => replayToolSet(providerTools),
  };
}
