import type { LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { fastPathEligible } from './fast-path-eligible.js';

const base: LanguageModelV2CallOptions = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
const fn = { type: 'function' as const, name: 'weather', inputSchema: { type: 'object' as const } };

describe('fastPathEligible', () => {
  it('takes plain calls, function tools, thinking and the options that add no block it does not read', () => {
    expect(fastPathEligible(base)).toBe(true);
    expect(fastPathEligible({ ...base, tools: [fn], toolChoice: { type: 'auto' } })).toBe(true);
    expect(fastPathEligible({ ...base, providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2000 }, cacheControl: { type: 'ephemeral' }, effort: 'low' } } })).toBe(true);
    expect(fastPathEligible({ ...base, responseFormat: { type: 'text' }, providerOptions: { openai: { store: false } } })).toBe(true);
  });

  it('leaves to the package: raw chunks, JSON answers, provider tools, betas, citations and the other anthropic options', () => {
    expect(fastPathEligible({ ...base, includeRawChunks: true })).toBe(false);
    expect(fastPathEligible({ ...base, responseFormat: { type: 'json' } })).toBe(false);
    expect(fastPathEligible({ ...base, tools: [fn, { type: 'provider-defined', id: 'anthropic.web_search_20250305', name: 'web_search', args: {} }] })).toBe(false);
    expect(fastPathEligible({ ...base, headers: { 'Anthropic-Beta': 'x' } })).toBe(false);
    for (const key of ['container', 'contextManagement', 'fallbacks', 'structuredOutputMode', 'anthropicBeta', 'somethingNew']) {
      expect(fastPathEligible({ ...base, providerOptions: { anthropic: { [key]: {} } } })).toBe(false);
    }
    const cited: LanguageModelV2CallOptions = {
      prompt: [{ role: 'user', content: [{ type: 'file', mediaType: 'application/pdf', data: 'AA==', providerOptions: { anthropic: { citations: { enabled: true } } } }] }],
    };
    expect(fastPathEligible(cited)).toBe(false);
  });
});
