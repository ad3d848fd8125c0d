export type { TurnHub, TurnLogWriter, AttachedTurn, TurnBus, TurnBusEvent } from './turn-hub.js';
export { createMemoryTurnHub } from './create-memory-turn-hub.js';
export type { MemoryTurnHub, MemoryTurnHubOptions, MemoryTurnHubStats } from './create-memory-turn-hub.js';
export { createMemoryTurnBus } from './create-memory-turn-bus.js';
export type { MemoryTurnBus, MemoryTurnBusOptions } from './create-memory-turn-bus.js';
export { createNotificationTurnBus, turnBusChannel } from './create-notification-turn-bus.js';
export type { NotificationTurnBusOptions, TurnBusNotifications } from './create-notification-turn-bus.js';
export { parseTurnBusEvent } from './parse-turn-bus-event.js';
export { DEFAULT_MAX_BYTES_PER_TURN, TURN_INTERRUPTED_ENDING, TURN_TOO_LONG_ENDING } from './turn-log-endings.js';
