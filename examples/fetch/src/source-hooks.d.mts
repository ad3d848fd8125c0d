/** Types of `source-hooks.mjs` (Node's module customization hooks, asynchronous and in-thread forms). */
type Next = (target: string, context?: unknown) => unknown;
export function resolve(specifier: string, context: unknown, nextResolve: Next): Promise<unknown>;
export function load(url: string, context: unknown, nextLoad: Next): Promise<unknown>;
export function resolveSync(specifier: string, context: unknown, nextResolve: Next): unknown;
export function loadSync(url: string, context: unknown, nextLoad: Next): unknown;
