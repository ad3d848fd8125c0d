import { generateText, type LanguageModel } from 'ai';
import type { Summarizer } from './compaction-types.js';
import { renderTranscript } from './render-transcript.js';

/** System prompt of the default summarizer. */
export const SUMMARIZER_SYSTEM_PROMPT = [
  'You condense the earlier part of a conversation between a user and an AI assistant that can call tools.',
  'Your summary replaces those messages in the assistant\'s context, so it must let the assistant continue the',
  'conversation as if it had read them. Write in the third person, in the language of the conversation.',
  'Keep: the user\'s goals, requests and preferences; decisions and conclusions; facts, names, identifiers',
  '(record ids, collection names, numbers, dates) and results obtained from tools; open questions and pending',
  'tasks. Merge the previous summary, if one is given, with the new messages into one summary; when they',
  'disagree, the newer messages win. Leave out greetings, repetition and raw tool output that no longer matters.',
  'Do not invent anything. Answer with the summary text only, no preamble, at most about 400 words.',
].join(' ');

export interface ModelSummarizerOptions {
  /** Default 1024. */
  maxOutputTokens?: number;
  /** Replaces SUMMARIZER_SYSTEM_PROMPT. */
  system?: string;
}

/**
 * The default summarizer over any AI SDK language model: one `generateText` call (one retry) with the messages
 * rendered as a transcript in a single user message, the previous summary included when there is one.
 */
export function createModelSummarizer(model: LanguageModel, options: ModelSummarizerOptions = {}): Summarizer {
  return async ({ messages, previousSummary, abortSignal }) => {
    const sections: string[] = [];
    if (previousSummary !== undefined && previousSummary.trim() !== '') {
      sections.push(`<previous_summary>\n${previousSummary}\n</previous_summary>`);
    }
    sections.push(`<conversation>\n${renderTranscript(messages)}\n</conversation>`);
    sections.push(
      previousSummary
        ? 'Write one updated summary covering the previous summary and the conversation above.'
        : 'Write the summary of the conversation above.',
    );
    const result = await generateText({
      model,
      system: options.system ?? SUMMARIZER_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: sections.join('\n\n') }],
      maxOutputTokens: options.maxOutputTokens ?? 1024,
      maxRetries: 1,
      ...(abortSignal ? { abortSignal } : {}),
    });
    return result.text.trim();
  };
}
