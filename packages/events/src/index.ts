export { createJetStreamBus, DEFAULT_CONNECT_TIMEOUT_MS } from "./jetstream-bus.js";
export { createMemoryBus } from "./memory-bus.js";
export { subjectFor, encodeSubjectToken, decodeSubjectToken } from "./subject-for.js";
export { LOUPE_STREAM, defaultStreamConfig } from "./stream-config.js";
export { encodeEnvelope, decodeEnvelope } from "./event-envelope.js";
export { retryDelayMs } from "./delivery.js";
export {
  DEFAULT_ACK_WAIT_MS,
  DEFAULT_MAX_DELIVER,
  DEFAULT_MAX_MESSAGES,
  DEFAULT_DUPLICATE_WINDOW_MS,
  DEFAULT_MAX_PAYLOAD_BYTES,
} from "./bus.js";
export type {
  Bus,
  BusMessage,
  ConsumeOptions,
  PublishAck,
  PublishOptions,
  StreamConfig,
  Subscription,
} from "./bus.js";
export type { JetStreamBusOptions } from "./jetstream-bus.js";
export type { MemoryBusOptions } from "./memory-bus.js";
export type { EventEnvelope } from "./event-envelope.js";
export { publishTurnEvents, parseTurnAppended, turnSubject, TURN_APPENDED, TURN_EVENTS_FILTER } from "./turn-events.js";
export type { TurnAppendedData } from "./turn-events.js";
