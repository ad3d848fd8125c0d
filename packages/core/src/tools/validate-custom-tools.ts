import { ChatwireError } from '@chatwire/storage';
import { zodSchema } from 'ai';
import { BUILT_IN_TOOLS } from './built-in-tool-names.js';
import type { ChatwireTool } from './tool-types.js';
import { toWireName, WIRE_NAME_PATTERN } from './wire-name.js';

function fail(message: string): never {
  throw new ChatwireError('CONFIGURATION', `createToolCatalog: ${message}`);
}

function checkInputSchema(name: string, schema: unknown): void {
  if (typeof schema !== 'object' || schema === null || !('_zod' in schema)) {
    fail(`custom tool '${name}' needs a zod 4 object schema as inputSchema`);
  }
  let converted: { type?: unknown };
  try {
    converted = zodSchema(schema as ChatwireTool['inputSchema']).jsonSchema as { type?: unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    fail(`custom tool '${name}' has an inputSchema that cannot be sent to a model as JSON Schema (${reason})`);
  }
  if (converted.type !== 'object') {
    fail(`custom tool '${name}' needs an object inputSchema (z.object(...)); providers only accept object input`);
  }
}

/**
 * A tool's `needsApproval` (a chatwire tool's, or an AI SDK 6/7 tool's): `true`, `false` or a function of the
 * input and the caller. Anything else is a mistake that could let the tool run unasked: refused.
 */
function checkApprovalRule(name: string, definition: object): void {
  const needsApproval = (definition as { needsApproval?: unknown }).needsApproval;
  if (needsApproval === undefined || typeof needsApproval === 'boolean' || typeof needsApproval === 'function') return;
  fail(`custom tool '${name}' has a needsApproval that is neither true, false nor a function`);
}

/**
 * Checks custom tools at configuration time: each name, after mapping dots to underscores, matches
 * providers' rule `^[a-zA-Z0-9_-]{1,64}$` and clashes neither with a built-in nor with another custom
 * tool; each tool has a description, a zod object input schema, an execute function and, if any, a valid
 * `needsApproval`.
 */
export function validateCustomTools(custom: Readonly<Record<string, ChatwireTool>>): Record<string, ChatwireTool> {
  const byWireName = new Map<string, string>(BUILT_IN_TOOLS.map((name) => [toWireName(name), name]));
  const checked: Record<string, ChatwireTool> = {};
  for (const [name, definition] of Object.entries(custom)) {
    const wireName = toWireName(name);
    if (!WIRE_NAME_PATTERN.test(wireName)) {
      fail(
        `custom tool name '${name}' is offered as '${wireName}', which providers reject: ` +
          'use 1 to 64 letters, digits, underscores, hyphens or dots',
      );
    }
    const clash = byWireName.get(wireName);
    if (clash !== undefined) {
      const what = (BUILT_IN_TOOLS as readonly string[]).includes(clash) ? 'the built-in tool' : 'the custom tool';
      fail(`custom tool '${name}' clashes with ${what} '${clash}' (both are offered as '${wireName}'); rename it`);
    }
    byWireName.set(wireName, name);
    if (typeof definition !== 'object' || definition === null) fail(`custom tool '${name}' must be an object`);
    if (typeof definition.description !== 'string' || definition.description.trim() === '') {
      fail(`custom tool '${name}' needs a description that tells the model when to use it`);
    }
    if (typeof definition.execute !== 'function') fail(`custom tool '${name}' needs an execute function`);
    checkApprovalRule(name, definition);
    checkInputSchema(name, definition.inputSchema);
    checked[name] = definition;
  }
  return checked;
}
