import type { ModelMessage } from 'ai';

/**
 * A plain-text transcript of model messages for a summarizer prompt: one block per message headed by its role,
 * tool calls and results as JSON, files and images as placeholders (no binary data), reasoning left out.
 */
export function renderTranscript(messages: readonly ModelMessage[]): string {
  return messages.map(renderMessage).join('\n\n');
}

function renderMessage(message: ModelMessage): string {
  const heading = `[${message.role}]`;
  if (typeof message.content === 'string') return `${heading}\n${message.content}`;
  const lines: string[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        lines.push(part.text);
        break;
      case 'tool-call':
        lines.push(`(called tool ${part.toolName} [${part.toolCallId}] with input ${json(part.input)})`);
        break;
      case 'tool-result': {
        const output = part.output as { type: string; value: unknown };
        const value = typeof output.value === 'string' ? output.value : json(output.value);
        const kind = output.type.startsWith('error') ? 'error' : 'result';
        lines.push(`(tool ${part.toolName} [${part.toolCallId}] ${kind}: ${value})`);
        break;
      }
      case 'image':
        lines.push('(image)');
        break;
      case 'file':
        lines.push(`(file${part.filename ? ` ${part.filename}` : ''}, ${part.mediaType})`);
        break;
      default:
        break; // reasoning: the summary is about the conversation, not the model's private notes
    }
  }
  return `${heading}\n${lines.join('\n')}`;
}

function json(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
