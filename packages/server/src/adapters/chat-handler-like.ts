/**
 * What an adapter needs from a chat handler: the fetch function plus its route test. `createChatHandler`
 * returns exactly this shape; adapters accept any such handler (they only convert types).
 */
export type ChatHandlerLike = ((request: Request) => Promise<Response>) & {
  readonly basePath: string;
  matches(pathname: string): boolean;
};

/** Receives errors the adapter could not turn into a response (handler threw, response stream failed). */
export type AdapterErrorListener = (error: unknown) => void;
