/** A byte range of an object: 0-based, `end` exclusive (`{ start: 0, end: 100 }` is the first 100 bytes). */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a put did: `"created"` wrote the object; `"exists"` found it already there (only with `ifAbsent`). */
export type PutOutcome = "created" | "exists";

/** One object of {@link ArchiveStore.putAll}. */
export interface AtomicPut {
  readonly key: string;
  readonly body: Uint8Array;
  /** A conditional create: an existing key is left as it is (`"exists"`). */
  readonly ifAbsent?: boolean;
}

/** Options of every store call. */
export interface StoreCallOptions {
  /** Aborts the call: it rejects with AppError `cancelled` (`deadline_exceeded` when the reason is a `TimeoutError`). */
  signal?: AbortSignal;
}

/** Options of {@link ArchiveStore.putAll}. */
export interface PutAllOptions extends StoreCallOptions {
  /**
   * Called at most once (not for a write refused or failed before it), when what is left of the write (its
   * commit and flush) runs without this thread — LMDB's write thread holds the transaction. A caller with
   * other work for this thread waits for it before starting that work, so the commit overlaps the work
   * instead of waiting behind it. What it throws is ignored.
   */
  onAccepted?: () => void;
}

/** Options of {@link ArchiveStore.put}. */
export interface PutOptions extends StoreCallOptions {
  /**
   * Conditional create: write only when the key does not exist yet, else resolve `"exists"` and leave the
   * stored object untouched. Concurrent creators of one key store one copy and exactly one sees `"created"`.
   * Default false (overwrite).
   */
  ifAbsent?: boolean;
  /** MIME type stored with the object where the backend keeps one (S3); ignored by the filesystem. */
  contentType?: string;
  /**
   * The body's exact length in bytes, when known. Lets a streamed body go to S3 in one request; a body of
   * another length is refused with `invalid_argument` and nothing is stored.
   */
  sizeBytes?: number;
  /**
   * Place the object (readable at once) but make it durable only with a later {@link ArchiveStore.sync} of
   * its key, together with the other objects of that sync: one durable write for several objects. A store
   * whose every put is durable (S3) ignores it.
   */
  deferSync?: boolean;
  /**
   * The SHA-256 of a buffered body (64 lowercase hex digits), when the caller already knows it (a
   * content-addressed blob): S3 signs the request with it instead of hashing the body again, and refuses
   * a body that does not match it (`invalid_argument`; nothing stored). Other stores ignore it.
   */
  sha256Hex?: string;
}

/** Options of {@link ArchiveStore.get}. */
export interface GetOptions extends StoreCallOptions {
  /** Only these bytes; clipped to the object's size (`start >= size` gives empty bytes). Default: the whole object. */
  range?: ByteRange;
}

/** What {@link ArchiveStore.stat} knows about a stored object. */
export interface ObjectInfo {
  sizeBytes: number;
}

/** Counters of an {@link ArchiveStore}, for tests and metrics. */
export interface ArchiveStoreStats {
  /** Object bytes read from the backend so far (object bodies, not listings or headers). */
  bytesReceived: number;
  /** Requests made to the backend so far (S3: HTTP attempts, retries included; filesystem: store calls). */
  requests: number;
}

/**
 * The archive's storage port: immutable-by-convention objects under string keys.
 *
 * Keys are `/`-separated segments of `[A-Za-z0-9._-]`, none empty or starting with `.`, built by the key
 * builders (`blobKey`, `recordKey`, …); any other key is refused with AppError `invalid_argument`.
 * Backend failures are AppErrors: `unavailable` (unreachable, timed out, 5xx), `cancelled`, `not_found`,
 * `permission_denied`, `failed_precondition` (no such bucket), `internal`.
 */
export interface ArchiveStore {
  /**
   * Writes `body` under `key`. With `ifAbsent`, a conditional create: `"exists"` when the key is already
   * there. Readers never see a partly written object. A streamed body may be left unread once the outcome
   * is known (ifAbsent on an existing key). On S3 servers that ignore `If-None-Match` on multipart
   * completion (Ceph RGW 16), a streamed body over one part without `sizeBytes` is created at most
   * "almost once": pass `sizeBytes` for an atomic create of a large stream.
   */
  put(key: string, body: Uint8Array | AsyncIterable<Uint8Array>, options?: PutOptions): Promise<PutOutcome>;
  /**
   * Reads the whole object or `options.range` of it (clipped to its size; `start >= size` → empty).
   * Throws AppError `not_found` when the key is missing, `invalid_argument` for a malformed range.
   */
  get(key: string, options?: GetOptions): Promise<Uint8Array>;
  /** The object's size, or undefined when the key is missing. */
  stat(key: string, options?: StoreCallOptions): Promise<ObjectInfo | undefined>;
  /** True when the key exists. */
  exists(key: string, options?: StoreCallOptions): Promise<boolean>;
  /** Deletes the key; a missing key is not an error. */
  delete(key: string, options?: StoreCallOptions): Promise<void>;
  /** Every key starting with `prefix` (a plain string prefix, `""` for all), in ascending byte order, fetched page by page. */
  list(prefix: string, options?: StoreCallOptions): AsyncIterable<string>;
  /**
   * The folders directly under `prefix` (which ends with `/`, or is `""`): each distinct `prefix + segment + "/"`
   * that begins a stored key, in ascending byte order (S3's common prefixes with the delimiter `/`). A store
   * may also name a folder whose keys were all deleted (the file store's empty directories).
   */
  listFolders(prefix: string, options?: StoreCallOptions): AsyncIterable<string>;
  /** Live counters; they only grow. */
  readonly stats: ArchiveStoreStats;
  /** Makes the objects put with `deferSync` at `keys` durable, together; keys already durable are fine. */
  sync?(keys: readonly string[], options?: StoreCallOptions): Promise<void>;
  /**
   * Writes small objects in one atomic step: all become visible together and are durable together when
   * it resolves; on a failure none is written. An `ifAbsent` object whose key exists is left as it is and
   * answered `"exists"`; the outcomes come in the order of `objects`. Keys must be distinct. A store whose
   * writes commit atomically implements it (LMDB); the others leave it out and are written object by
   * object. Throws AppError `invalid_argument` for a body over the store's inline size or a repeated key.
   */
  putAll?(objects: readonly AtomicPut[], options?: PutAllOptions): Promise<PutOutcome[]>;
  /** Finishes what the store keeps open (the file store's journal); a store without any leaves it out. */
  close?(): void | Promise<void>;
}
