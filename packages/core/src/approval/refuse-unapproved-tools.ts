import { ChatwireError, type Caller } from '@chatwire/storage';
import type { ToolSet } from 'ai';
import { approvalRuleOf, isApprovalNeeded } from './approval-rule.js';

export const APPROVAL_UNSUPPORTED_TEXT =
  "This tool needs the user's approval, which this model path (the AI SDK's own streamText) cannot ask for: it did not run.";

/**
 * The tool set for a step runner that cannot pause for approval (the AI SDK 5 `streamText` path): every tool
 * with an approval rule runs only when its rule says this call needs none; otherwise the call fails with a
 * tool error the model is told about. A tool that needs approval never runs unasked.
 */
export function refuseUnapprovedTools(tools: ToolSet, caller: Caller): ToolSet {
  let out: ToolSet | undefined;
  for (const [name, tool] of Object.entries(tools)) {
    if (approvalRuleOf(tool) === undefined || tool.execute == null) continue;
    out ??= { ...tools };
    const execute = tool.execute.bind(tool);
    out[name] = {
      ...tool,
      execute: async (input: unknown, options: Parameters<typeof execute>[1]) => {
        if (await isApprovalNeeded(tool, { toolCallId: options.toolCallId, input }, caller, options.messages)) {
          throw new ChatwireError('FORBIDDEN', APPROVAL_UNSUPPORTED_TEXT);
        }
        return execute(input as never, options);
      },
    } as ToolSet[string];
  }
  return out ?? tools;
}
