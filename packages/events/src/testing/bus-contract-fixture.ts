import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Bus, BusMessage, ConsumeOptions, Subscription } from "../bus.js";

/** What {@link describeBusContract} runs against. */
export interface BusContractTarget {
  /** Opens a bus on the shared backing store (same directory, same server); each call a new instance. */
  open(): Promise<Bus>;
  /** The ack wait the timing cases use, in ms (the other waits scale with it). */
  ackWaitMs: number;
  /** True when a bus opened again sees what a closed one stored (a directory, a server). */
  persistent: boolean;
  /** Deletes a stream a case created (JetStream); default: nothing to do. */
  removeStream?(name: string): Promise<void>;
}

/** One delivery as a case saw it. */
export interface Seen {
  readonly message: BusMessage;
  readonly atMs: number;
  readonly by: string;
}

/** A fresh stream (unique name and subjects) with helpers; `cleanup()` closes buses and removes streams. */
export interface ContractFixture {
  bus: Bus;
  stream: string;
  subject: (suffix: string) => string;
  seen: Seen[];
  /** Consumes with a recording handler: `act` settles each delivery (default ack). */
  consume: (options: Partial<ConsumeOptions> & { act?: (seen: Seen) => Promise<void> | void; by?: string; on?: Bus }) => Promise<Subscription>;
  /** Polls until `predicate` holds; fails the case after `timeoutMs`. */
  until: (predicate: () => boolean, timeoutMs: number, label: string) => Promise<void>;
  /** Opens another bus on the same store (closed by cleanup). */
  reopen: () => Promise<Bus>;
  /** Registers another stream for removal. */
  track: (stream: string) => void;
  cleanup: () => Promise<void>;
}

/** Creates a fixture with its own stream `CONTRACT_<hex>` on subjects `contract.<hex>.>`. */
export async function createContractFixture(target: BusContractTarget): Promise<ContractFixture> {
  const id = randomBytes(5).toString("hex");
  const stream = `CONTRACT_${id}`;
  const streams = [stream];
  const bus = await target.open();
  const buses = [bus];
  const subscriptions: Subscription[] = [];
  await bus.ensureStream({ name: stream, subjects: [`contract.${id}.>`], maxAgeMs: 600_000, maxBytes: 64 * 1024 * 1024, duplicateWindowMs: 60_000 });
  const seen: Seen[] = [];
  const fixture: ContractFixture = {
    bus,
    stream,
    subject: (suffix) => `contract.${id}.${suffix}`,
    seen,
    consume: async (options) => {
      const { act, by = "first", on = bus, ...rest } = options;
      const subscription = await on.consume(stream, {
        durable: "worker",
        filterSubject: `contract.${id}.>`,
        ackWaitMs: target.ackWaitMs,
        ...rest,
        handler: async (message) => {
          const entry = { message, atMs: performance.now(), by };
          seen.push(entry);
          if (act) await act(entry);
          else message.ack();
        },
      });
      subscriptions.push(subscription);
      return subscription;
    },
    until: async (predicate, timeoutMs, label) => {
      const deadline = performance.now() + timeoutMs;
      while (!predicate()) {
        if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${label} [seen=${seen.length}]`);
        await sleep(10);
      }
    },
    reopen: async () => {
      const next = await target.open();
      buses.push(next);
      return next;
    },
    track: (name) => void streams.push(name),
    cleanup: async () => {
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
      await Promise.all(buses.map((each) => each.close()));
      for (const name of streams) await target.removeStream?.(name);
    },
  };
  return fixture;
}

/** UTF-8 bytes of a string. */
export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
/** The string of UTF-8 bytes. */
export const text = (data: Uint8Array): string => new TextDecoder().decode(data);
export { sleep };
