import { afterAll, beforeAll, describe } from 'vitest';
import type { StoreDriver } from '../store-driver.js';
import { makeContext, type StoreContractOptions } from './contract-context.js';
import { describeCrud } from './contract-crud.js';
import { describeFilters } from './contract-filters.js';
import { describeOrdering } from './contract-ordering.js';
import { describePagination } from './contract-pagination.js';
import { describeTransactions } from './contract-transactions.js';
import { describeLeases } from './contract-leases.js';
import { describeNotifications } from './contract-notifications.js';
import { describeValidation } from './contract-validation.js';
import { describeRules } from './contract-rules.js';
import { describeSearch } from './contract-search.js';

/**
 * Declares the driver contract suite: every `StoreDriver` runs it from its own test file.
 *
 * ```ts
 * defineStoreContract({ name: 'memory', createDriver: () => createMemoryDriver() });
 * ```
 *
 * One driver serves the whole suite; each test works in its own freshly named collections, so the suite
 * never needs to empty the store and never looks at driver internals.
 */
export function defineStoreContract(options: StoreContractOptions): void {
  describe(`store contract: ${options.name}`, () => {
    let driver: StoreDriver | undefined;
    beforeAll(async () => {
      driver = await options.createDriver();
    });
    afterAll(async () => {
      if (!driver) return;
      if (options.cleanup) await options.cleanup(driver);
      else await driver.close?.();
    });
    const ctx = makeContext(() => {
      if (!driver) throw new Error('the contract driver was not created');
      return driver;
    });
    describeCrud(ctx);
    describeFilters(ctx);
    describeOrdering(ctx);
    describePagination(ctx);
    describeTransactions(ctx);
    describeLeases(ctx);
    describeNotifications(ctx);
    describeValidation(ctx);
    describeRules(ctx);
    describeSearch(ctx);
  });
}
