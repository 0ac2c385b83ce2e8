export { describeStateStoreContract } from "./state-store-contract.js";
