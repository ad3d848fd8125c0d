import { defineBlobContract } from '../testing/define-blob-contract.js';
import { createMemoryBlobStore } from './create-memory-blob-store.js';

defineBlobContract({ name: 'memory', createStore: () => createMemoryBlobStore() });
