export { connectRedis, redactRedisUrl } from './connect-redis.js';
export type { ConnectRedisOptions, RedisClient } from './connect-redis.js';
export { createRedisTurnHub } from './create-redis-turn-hub.js';
export type { RedisTurnHub, RedisTurnHubOptions, RedisTurnHubStats } from './create-redis-turn-hub.js';
export { createRedisTurnBus } from './create-redis-turn-bus.js';
export type { RedisTurnBusOptions } from './create-redis-turn-bus.js';
