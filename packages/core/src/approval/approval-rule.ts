import type { Caller } from '@chatwire/storage';
import type { ModelMessage, Tool, ToolSet } from 'ai';

/** What a `needsApproval` function receives besides the input: the caller, and the call as the AI SDK names it. */
export type ApprovalCallContext = Caller & { toolCallId: string; messages: ModelMessage[] };

/**
 * Whether a tool asks the user before it runs: `true`, or a function of the input and the caller (a custom
 * tool's `needsApproval`, an AI SDK 6/7 tool's `needsApproval`, or `approveTools` of the catalog).
 */
export type NeedsApproval = boolean | ((input: any, context: ApprovalCallContext) => boolean | Promise<boolean>);

/** The tool's approval rule, when it has one (`false` and absent ask for nothing). */
export function approvalRuleOf(tool: unknown): Exclude<NeedsApproval, false> | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const rule = (tool as { needsApproval?: unknown }).needsApproval;
  return rule === true || typeof rule === 'function' ? (rule as Exclude<NeedsApproval, false>) : undefined;
}

/** The AI SDK tool with `rule` as its approval rule (a property the AI SDK 6/7 reads under the same name). */
export function withApprovalRule<T extends Tool>(tool: T, rule: NeedsApproval | undefined): T {
  if (rule === undefined || rule === false) return tool;
  return Object.assign(tool, { needsApproval: rule });
}

/** Whether this call of `tool` must wait for the user. A rule that throws asks (never runs unasked). */
export async function isApprovalNeeded(tool: unknown, call: { toolCallId: string; input: unknown }, caller: Caller, messages: ModelMessage[] = []): Promise<boolean> {
  const rule = approvalRuleOf(tool);
  if (rule === undefined) return false;
  if (rule === true) return true;
  try {
    return (await rule(call.input, { ...caller, toolCallId: call.toolCallId, messages })) !== false;
  } catch {
    return true;
  }
}
