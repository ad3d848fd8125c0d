export { createMemoryDriver } from './create-memory-driver.js';
export type { MemoryDriver, MemoryDriverOptions } from './create-memory-driver.js';
export { createMemoryLeases } from './create-memory-leases.js';
export type { MemoryLeases, MemoryLeasesOptions } from './create-memory-leases.js';
export type { MemoryCollectionStats, QueryPlan } from './memory-collection.js';
export { createMemoryNotifications } from './create-memory-notifications.js';
export type { MemoryNotificationsOptions } from './create-memory-notifications.js';
