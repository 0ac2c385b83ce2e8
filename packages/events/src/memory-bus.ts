import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@loupe/errors";
import type { Bus, ConsumeOptions, PublishAck, PublishOptions, StreamConfig, Subscription } from "./bus.js";
import { DEFAULT_MAX_PAYLOAD_BYTES } from "./bus.js";
import { MemoryStream } from "./memory-stream.js";
import type { SavedStream } from "./memory-stream.js";
import { checkPublish, raceSignal, resolveConsumeOptions, throwIfAborted } from "./options.js";
import { StateFile } from "./state-file.js";
import { resolveStreamConfig } from "./stream-config.js";
import { createSubscriptionHandle } from "./subscription-handle.js";
import { filtersOverlap, subjectMatches } from "./subject-match.js";

/** Options for {@link createMemoryBus}. */
export interface MemoryBusOptions {
  /**
   * Where streams persist (`<directory>/streams/<name>/messages.log` and
   * `state.json`); created when missing. Without it everything lives in
   * memory. One process at a time may open a directory.
   */
  directory?: string;
  /** Largest payload accepted, in bytes. Default 1 MiB, as a NATS server's `max_payload`. */
  maxPayloadBytes?: number;
}

/**
 * The in-process bus for embedded mode, with the JetStream adapter's
 * semantics (see {@link Bus}). With a directory, a publish resolves after its
 * log line is fsync'd, and a restart keeps every stored message, each
 * consumer's acks and delivery counts, and the msgId dedupe window; messages
 * delivered but not settled before the restart are redelivered at once.
 * Acks and delivery counts reach disk within 100 ms (STATE_WRITE_DELAY_MS),
 * and at once on close: a crash may deliver the last of them again.
 * The log is compacted once it holds more discarded than live messages.
 *
 * @throws AppError `internal` when the directory holds a corrupt log or state file
 */
export async function createMemoryBus(options: MemoryBusOptions = {}): Promise<Bus> {
  const streamsDirectory = options.directory === undefined ? undefined : join(options.directory, "streams");
  const maxPayloadBytes = options.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
  const streams = streamsDirectory === undefined ? new Map<string, MemoryStream>() : await loadStreams(streamsDirectory);
  const subscriptions = new Set<Subscription>();
  // Publishes still work while closing, so that handlers finishing their last messages can publish.
  let state: "open" | "closing" | "closed" = "open";
  let serial: Promise<unknown> = Promise.resolve();

  const assertOpen = (allowClosing = false): void => {
    if (state === "closed" || (state === "closing" && !allowClosing)) throw new AppError("unavailable", "event bus closed");
  };

  const ensureStream = async (config: StreamConfig): Promise<void> => {
    assertOpen();
    const resolved = resolveStreamConfig(config);
    // Serialised so that two concurrent calls cannot both create the stream.
    const run = serial.then(async () => {
      for (const other of streams.values()) {
        if (other.config.name === resolved.name) continue;
        const clash = resolved.subjects.find((subject) => other.config.subjects.some((taken) => filtersOverlap(subject, taken)));
        if (clash !== undefined) {
          throw new AppError("failed_precondition", `stream subjects overlap [stream=${resolved.name}, subject=${clash}, other=${other.config.name}]`);
        }
      }
      const existing = streams.get(resolved.name);
      if (existing) return existing.configure(resolved);
      const directory = streamsDirectory === undefined ? undefined : join(streamsDirectory, resolved.name);
      streams.set(resolved.name, await MemoryStream.open(resolved, directory));
    });
    serial = run.catch(() => undefined);
    return run;
  };

  const publish = async (subject: string, data: Uint8Array, publishOptions: PublishOptions = {}): Promise<PublishAck> => {
    assertOpen(true);
    checkPublish(subject, data, publishOptions, maxPayloadBytes);
    throwIfAborted(publishOptions.signal, "publish");
    const stream = [...streams.values()].find((candidate) => candidate.config.subjects.some((filter) => subjectMatches(filter, subject)));
    if (!stream) throw new AppError("failed_precondition", `no stream stores subject [subject=${subject}]`);
    return raceSignal(stream.publish(subject, data, publishOptions), publishOptions.signal, "publish");
  };

  const consume = async (streamName: string, consumeOptions: ConsumeOptions): Promise<Subscription> => {
    assertOpen();
    const resolved = resolveConsumeOptions(streamName, consumeOptions);
    const stream = streams.get(streamName);
    if (!stream) throw new AppError("not_found", `stream not found [stream=${streamName}]`);
    const consumer = stream.consumer(resolved.durable, resolved.filterSubject, resolved.ackWaitMs, resolved.maxDeliver, resolved.startAt);
    const stopWork = consumer.subscribe(resolved.maxMessages, resolved.handler);
    const { subscription } = createSubscriptionHandle(async () => {
      await stopWork();
      subscriptions.delete(subscription);
    }, resolved.signal);
    subscriptions.add(subscription);
    return subscription;
  };

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      state = "closing";
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
      await serial;
      state = "closed";
      await Promise.all([...streams.values()].map((stream) => stream.close()));
    })());

  return { ensureStream, publish, consume, close };
}

async function loadStreams(streamsDirectory: string): Promise<Map<string, MemoryStream>> {
  await mkdir(streamsDirectory, { recursive: true });
  const streams = new Map<string, MemoryStream>();
  for (const entry of await readdir(streamsDirectory, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const directory = join(streamsDirectory, entry.name);
    const saved = (await StateFile.read(join(directory, "state.json"))) as SavedStream | undefined;
    // A directory without state is a stream whose creation did not finish: it never stored anything.
    if (saved === undefined) continue;
    if (saved.version !== 1 || saved.config?.name !== entry.name) {
      throw new AppError("internal", `corrupt bus state [path=${directory}]`);
    }
    streams.set(entry.name, await MemoryStream.open(resolveStreamConfig(saved.config), directory, saved));
  }
  return streams;
}
