import { defineWorkspace } from 'vitest/config';

// vitest 3 reads this file; each package is one project so `pnpm test` runs them all.
export default defineWorkspace(['packages/*', 'examples/*']);
