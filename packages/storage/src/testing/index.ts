export { defineStoreContract } from './define-store-contract.js';
export type { StoreContractOptions, ContractContext } from './contract-context.js';
export { withFaults } from './with-faults.js';
export type { FaultyDriver, FaultControls, FaultMatch, FaultCall, DriverOperation } from './with-faults.js';
export { RULE_MATRIX, RULE_ACTORS, ACTOR_CALLERS, RULE_VALUES } from './rule-matrix.js';
export type { RuleKind, RuleOperation, RuleActor, RuleOutcome } from './rule-matrix.js';
export { FILTER_CASES } from './contract-filters.js';
export { BAD_INPUT_CASES } from './contract-validation.js';
