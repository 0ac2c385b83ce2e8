import { DiscardPolicy, JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager, RetentionPolicy, StorageType } from "@nats-io/jetstream";
import { connect, headers as natsHeaders, nanos } from "@nats-io/transport-node";
import type { NatsConnection } from "@nats-io/transport-node";
import { AppError } from "@loupe/errors";
import type { Bus, ConsumeOptions, PublishAck, PublishOptions, StreamConfig, Subscription } from "./bus.js";
import { ensureConsumer, startJetStreamSubscription } from "./jetstream-consumer.js";
import { appErrorFromNats } from "./jetstream-errors.js";
import { checkPublish, raceSignal, resolveConsumeOptions, throwIfAborted } from "./options.js";
import { resolveStreamConfig } from "./stream-config.js";

/** Options for {@link createJetStreamBus}. */
export interface JetStreamBusOptions {
  /** NATS server URLs or `host:port`s. */
  servers: string | string[];
  /** Connection name shown by the server (`nats-server` monitoring). */
  name?: string;
  /** How long the first connection may take, in ms. Default 5_000. */
  connectTimeoutMs?: number;
}

/** Default {@link JetStreamBusOptions.connectTimeoutMs}. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/**
 * Connects to NATS JetStream and returns the distributed {@link Bus}.
 * Streams use file storage, limits retention and discard-old. After the first
 * connection the client reconnects forever; publishes while disconnected fail
 * with `unavailable`.
 *
 * @throws AppError `unavailable` when no server answers (or JetStream is not enabled)
 */
export async function createJetStreamBus(options: JetStreamBusOptions): Promise<Bus> {
  const servers = options.servers;
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers,
      timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      maxReconnectAttempts: -1,
      ...(options.name === undefined ? {} : { name: options.name }),
    });
  } catch (error) {
    throw appErrorFromNats(error, `connect [servers=${String(servers)}]`);
  }
  try {
    const jsm = await jetstreamManager(nc);
    return createBus(nc, jsm);
  } catch (error) {
    await nc.close().catch(() => undefined);
    throw appErrorFromNats(error, `jetstream [servers=${String(servers)}]`);
  }
}

function createBus(nc: NatsConnection, jsm: Awaited<ReturnType<typeof jetstreamManager>>): Bus {
  const js = jetstream(nc);
  const subscriptions = new Set<Subscription>();
  const termWithReason = isAtLeast(nc.info?.version ?? "0.0.0", [2, 11]);
  let closing: Promise<void> | undefined;

  const ensureStream = async (config: StreamConfig): Promise<void> => {
    const resolved = resolveStreamConfig(config);
    const limits = {
      subjects: resolved.subjects,
      max_age: nanos(resolved.maxAgeMs),
      max_bytes: resolved.maxBytes > 0 ? resolved.maxBytes : -1,
      duplicate_window: nanos(resolved.duplicateWindowMs),
    };
    const what = `ensure stream [stream=${resolved.name}]`;
    try {
      await jsm.streams.info(resolved.name);
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw appErrorFromNats(error, what);
      try {
        const fixed = { storage: StorageType.File, retention: RetentionPolicy.Limits, discard: DiscardPolicy.Old };
        await jsm.streams.add({ name: resolved.name, ...fixed, ...limits });
        return;
      } catch (addError) {
        // 10058: another replica created it meanwhile, with other limits: update those below.
        if (!(addError instanceof JetStreamApiError && addError.code === 10058)) throw appErrorFromNats(addError, what);
      }
    }
    try {
      await jsm.streams.update(resolved.name, limits);
    } catch (error) {
      throw appErrorFromNats(error, what);
    }
  };

  const publish = async (subject: string, data: Uint8Array, options: PublishOptions = {}): Promise<PublishAck> => {
    checkPublish(subject, data, options, nc.info?.max_payload);
    throwIfAborted(options.signal, "publish");
    const what = `publish [subject=${subject}]`;
    const entries = Object.entries(options.headers ?? {});
    const headers = entries.length > 0 ? natsHeaders() : undefined;
    for (const [key, value] of entries) headers?.set(key, value);
    const publishing = js
      .publish(subject, data, { ...(headers ? { headers } : {}), ...(options.msgId === undefined ? {} : { msgID: options.msgId }) })
      .then((ack) => ({ seq: ack.seq, duplicate: ack.duplicate }))
      .catch((error: unknown) => {
        throw appErrorFromNats(error, what, { publish: true });
      });
    return raceSignal(publishing, options.signal, "publish");
  };

  const consume = async (stream: string, options: ConsumeOptions): Promise<Subscription> => {
    if (closing) throw new AppError("unavailable", "event bus closed");
    const resolved = resolveConsumeOptions(stream, options);
    await ensureConsumer(jsm, stream, resolved);
    const subscription = await startJetStreamSubscription(js, stream, resolved, termWithReason);
    subscriptions.add(subscription);
    void subscription.done.catch(() => undefined).finally(() => subscriptions.delete(subscription));
    return subscription;
  };

  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
      // drain() flushes the acks the handlers just sent; a closed connection has nothing left to drain.
      if (!nc.isClosed()) await nc.drain().catch((error: unknown) => Promise.reject(appErrorFromNats(error, "drain")));
    })());

  return { ensureStream, publish, consume, close };
}

function isAtLeast(version: string, minimum: [number, number]): boolean {
  const [major = 0, minor = 0] = version.split(".").map((part) => Number.parseInt(part, 10));
  return major > minimum[0] || (major === minimum[0] && minor >= minimum[1]);
}
