/** Types of `source-hooks.mjs` (Node's module customization hooks). */
export function resolve(specifier: string, context: unknown, nextResolve: (specifier: string, context?: unknown) => Promise<unknown>): Promise<unknown>;
export function load(url: string, context: unknown, nextLoad: (url: string, context?: unknown) => Promise<unknown>): Promise<unknown>;
