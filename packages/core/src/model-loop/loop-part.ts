import type { TextStreamPart, ToolSet } from 'ai';

/** One part of the loop's output: the same shapes as `streamText(...).fullStream`. */
export type LoopPart = TextStreamPart<ToolSet>;

/** The loop part of one type. */
export type LoopPartOf<T extends LoopPart['type']> = Extract<LoopPart, { type: T }>;

/** Takes each part as it is produced; `false` ends the loop at once (the model call is cancelled). */
export type PartSink = (part: LoopPart) => boolean | void;
