import { describe, expect, it } from 'vitest';
import { turnOptionsFromEnv } from './turn-options-from-env.js';

describe('turnOptionsFromEnv', () => {
  it('maps each variable onto its service option', () => {
    expect(
      turnOptionsFromEnv({
        CHATWIRE_PROVIDER_FIRST_BYTE_TIMEOUT_MS: '60000',
        CHATWIRE_PROVIDER_IDLE_TIMEOUT_MS: '0',
        CHATWIRE_TURN_LEASE_TTL_MS: '15000',
        CHATWIRE_ON_DISCONNECT: 'continue',
        CHATWIRE_AUTO_CREATE_CHATS: '1',
        CHATWIRE_AUTO_TITLES: '1',
        CHATWIRE_SHARING: '1',
      }),
    ).toEqual({
      providerFirstByteTimeoutMs: 60_000,
      providerIdleTimeoutMs: 0,
      turnLeaseTtlMs: 15_000,
      onDisconnect: 'continue',
      createChatOnFirstTurn: true,
      autoTitles: true,
      sharing: true,
    });
  });

  it('keeps the defaults for unset and empty variables', () => {
    expect(turnOptionsFromEnv({ CHATWIRE_ON_DISCONNECT: '', CHATWIRE_AUTO_CREATE_CHATS: ' ' })).toEqual({});
  });

  it('CHATWIRE_APPROVE_TOOLS: a comma-separated list of tool names (spaces and empty entries ignored)', () => {
    expect(turnOptionsFromEnv({ CHATWIRE_APPROVE_TOOLS: 'records.delete, records_update,,mcp_crm_*' })).toEqual({
      approveTools: ['records.delete', 'records_update', 'mcp_crm_*'],
    });
    expect(turnOptionsFromEnv({ CHATWIRE_APPROVE_TOOLS: ' , ' })).toEqual({});
  });

  it.each([
    ['CHATWIRE_ON_DISCONNECT', 'later'],
    ['CHATWIRE_AUTO_CREATE_CHATS', 'maybe'],
    ['CHATWIRE_AUTO_TITLES', 'yes please'],
    ['CHATWIRE_SHARING', 'public'],
    ['CHATWIRE_TURN_LEASE_TTL_MS', '0'],
    ['CHATWIRE_PROVIDER_IDLE_TIMEOUT_MS', '30s'],
  ])('rejects %s=%j with a CONFIGURATION error naming it', (name, value) => {
    expect(() => turnOptionsFromEnv({ [name]: value })).toThrow(expect.objectContaining({ code: 'CONFIGURATION', message: expect.stringContaining(name) }));
  });
});
