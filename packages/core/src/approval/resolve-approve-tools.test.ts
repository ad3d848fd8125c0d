import { ChatwireError } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { resolveApproveTools } from './resolve-approve-tools.js';

const catalog = [
  { name: 'records.delete', wireName: 'records_delete' },
  { name: 'records.update', wireName: 'records_update' },
  { name: 'weather.today', wireName: 'weather_today' },
];
const inSource = (name: string) => name.startsWith('mcp_crm_');

describe('resolveApproveTools', () => {
  it('takes catalog names, wire names, MCP tool names and an MCP server wildcard', () => {
    const approve = resolveApproveTools(['records.delete', 'weather_today', 'mcp_crm_remove', 'mcp_crm_write_*'], catalog, inSource);
    expect([...approve.catalog].sort()).toEqual(['records_delete', 'weather_today']);
    expect(approve.source('mcp_crm_remove')).toBe(true);
    expect(approve.source('mcp_crm_write_note')).toBe(true);
    expect(approve.source('mcp_crm_find')).toBe(false);
  });

  it('default: nothing asks', () => {
    const approve = resolveApproveTools(undefined, catalog, inSource);
    expect(approve.catalog.size).toBe(0);
    expect(approve.source('mcp_crm_remove')).toBe(false);
  });

  it('an unknown name is a CONFIGURATION error naming it', () => {
    let error: unknown;
    try {
      resolveApproveTools(['records.purge'], catalog, inSource);
    } catch (caught) {
      error = caught;
    }
    expect(ChatwireError.is(error, 'CONFIGURATION')).toBe(true);
    expect((error as Error).message).toContain("approveTools lists 'records.purge'");
  });
});
