export { createMemoryBus } from "./memory-bus.js";

export { LOUPE_STREAM, defaultStreamConfig } from "./stream-config.js";
export { encodeEnvelope, decodeEnvelope } from "./event-envelope.js";
export { retryDelayMs } from "./delivery.js";

export type { Bus, BusMessage, ConsumeOptions, PublishOptions, StreamConfig, Subscription } from "./bus.js";
export type { MemoryBusOptions } from "./memory-bus.js";

export { publishTurnEvents, parseTurnAppended, TURN_APPENDED } from "./turn-events.js";
export { publishResultProjected, parseResultProjected, resultSubject, RESULT_PROJECTED, RESULT_EVENTS_FILTER } from "./result-events.js";
export type { ResultProjectedData } from "./result-events.js";
export type { TurnAppendedData } from "./turn-events.js";
