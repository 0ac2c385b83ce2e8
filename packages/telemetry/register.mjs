// Load first, with `node --import @loupe/telemetry/register …`: registers OpenTelemetry's ESM
// loader hook (import-in-the-middle), without which the grpc-js and ioredis instrumentations
// started by startTelemetry() see no ES module imports and record nothing.
import { register } from "node:module";

register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
