// The JetStream bus alone (`@loupe/events/jetstream`): the NATS client loads only in the processes
// that connect to NATS, not in an embedded Loupe.
export { createJetStreamBus } from "./jetstream-bus.js";
export type { JetStreamBusOptions } from "./jetstream-bus.js";
