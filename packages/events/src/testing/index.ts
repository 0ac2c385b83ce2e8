/**
 * Test support for Bus adapters: the behaviour table both adapters run
 * (unit tests against the memory bus, integration tests against JetStream).
 * It imports `node:test`, so production code never imports this module.
 *
 * @internal
 */
export { describeBusContract } from "./bus-contract.js";
export { bytes, text } from "./bus-contract-fixture.js";
export type { BusContractTarget } from "./bus-contract-fixture.js";
