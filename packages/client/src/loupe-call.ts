import type { DescMessage, MessageInitShape, MessageShape } from "@bufbuild/protobuf";

/** Per-call options of a {@link LoupeClient} method. */
export interface LoupeCallOptions {
  /** Cancels the call (and any retry delay): it fails with AppError `cancelled`. */
  signal?: AbortSignal;
  /** Deadline of this call in ms (attempts and retry delays), instead of the client's. */
  timeoutMs?: number;
}

/** One typed call: a request init in, the response message out. */
export type LoupeCall<I extends DescMessage, O extends DescMessage> = (request: MessageInitShape<I>, options?: LoupeCallOptions) => Promise<MessageShape<O>>;
