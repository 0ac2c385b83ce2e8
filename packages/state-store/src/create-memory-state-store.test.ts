import { createMemoryStateStore } from "./create-memory-state-store.js";
import { describeStateStoreContract } from "./testing/state-store-contract.js";

describeStateStoreContract("createMemoryStateStore()", async () => createMemoryStateStore());
