import { defineStoreContract } from '../testing/index.js';
import { createMemoryDriver } from './create-memory-driver.js';

defineStoreContract({ name: 'memory', createDriver: () => createMemoryDriver() });
