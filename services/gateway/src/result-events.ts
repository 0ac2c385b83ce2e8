import { publishResultProjected, type Bus, type ResultProjectedData } from "@loupe/events";
import type { Logger } from "@loupe/runtime";
import { injectTraceHeaders } from "@loupe/telemetry";

/** Attempts per event before it is given up (the archive's record stays the truth: nothing is lost with it). */
const ATTEMPTS = 4;
const BACKOFF_MS = 250;

/**
 * Publishes a saved result's `result.projected` event in the background, so it never delays the
 * Project answer: the trace context of the call that saved it goes in the headers (taken now, while
 * its span is active), and a failed publish is retried with a growing pause, then logged and dropped.
 */
export function createResultEventPublisher(bus: Bus, logger: Logger, now: () => Date = () => new Date()): (tenant: string, data: ResultProjectedData) => void {
  return (tenant, data) => {
    const headers = injectTraceHeaders();
    void (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await publishResultProjected(bus, tenant, data, now(), headers);
          return;
        } catch (error) {
          if (attempt >= ATTEMPTS) {
            logger.warn("result event not published; the saved result is unaffected", { resultId: data.resultId, error });
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS * attempt));
        }
      }
    })();
  };
}
