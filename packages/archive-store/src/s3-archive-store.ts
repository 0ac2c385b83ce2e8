import { ListObjectsV2Command, type ListObjectsV2CommandOutput } from "@aws-sdk/client-s3";
import { AppError } from "@loupe/errors";
import { throwIfAborted } from "./abort-error.js";
import { checkedSha256 } from "./archive-keys.js";
import type { ArchiveStore, ArchiveStoreStats, GetOptions, StoreCallOptions } from "./archive-store.js";
import { assertValidRange } from "./byte-range.js";
import { assertValidFolderPrefix, assertValidKey, assertValidPrefix } from "./key-rules.js";
import { createBucketIfMissing, createS3Client, sendOptions } from "./s3-client.js";
import { appErrorFromS3Error, errorNameOf, httpStatusOf } from "./s3-errors.js";
import type { S3CallContext } from "./s3-errors.js";
import { putS3Object } from "./s3-put.js";
import { createSignedRequester, signalOf } from "./s3-signed-request.js";

/** Options of {@link createS3ArchiveStore}. */
export interface S3ArchiveStoreOptions {
  /** Endpoint URL of an S3-compatible server, e.g. `http://127.0.0.1:7480`. Default: AWS S3 for `region`. */
  endpoint?: string;
  /** AWS region, also used for signing (`us-east-1` for most S3-compatible servers). */
  region: string;
  /** The bucket holding every key of this store. */
  bucket: string;
  /** Path-style URLs (`endpoint/bucket/key`), needed by most S3-compatible servers. Default false. */
  forcePathStyle?: boolean;
  /** Static credentials. Default: the AWS SDK's provider chain (standard AWS variables, profiles, …). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Budget of one HTTP attempt until the response starts, and the longest idle gap while it streams. Default 10 000. */
  requestTimeoutMs?: number;
  /** Budget for establishing a connection. Default 2 000. */
  connectionTimeoutMs?: number;
  /** HTTP attempts per call, retries of refused connections, timeouts and 5xx included. Default 2. */
  maxAttempts?: number;
  /** Create the bucket on first use when it does not exist. Default false. */
  createBucketIfMissing?: boolean;
  /** Keys per ListObjectsV2 page, 1–1000. Default 1000. */
  listPageSize?: number;
  /** Part size of multipart uploads, at least 5 MiB (S3's minimum). Default 8 MiB. */
  partSizeBytes?: number;
}

/** The S3 {@link ArchiveStore}, with bucket set-up and shutdown. */
export interface S3ArchiveStore extends ArchiveStore {
  /** Creates the bucket when it does not exist; an existing bucket is fine. Throws AppErrors as the store calls do. */
  ensureBucket(options?: StoreCallOptions): Promise<void>;
  /** Closes the client's sockets; the store must not be used afterwards. */
  close(): void;
}

const DEFAULT_LIST_PAGE_SIZE = 1000;
const DEFAULT_PART_SIZE_BYTES = 8 * 1024 * 1024;
const MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECTION_TIMEOUT_MS = 2_000;
const DEFAULT_MAX_ATTEMPTS = 2;

/**
 * The S3 adapter of {@link ArchiveStore}, for distributed mode; tested against Ceph RGW. Object requests go
 * through the SDK's SigV4 signer and Node HTTP handler directly (s3-signed-request.ts); listing, multipart
 * uploads and bucket set-up through `@aws-sdk/client-s3`'s commands, whose credential chain signs both.
 *
 * Conditional creates use `If-None-Match: *`. Ranged reads send `Range` so only the requested bytes
 * travel. Failures are AppErrors: refused connections and timeouts are `unavailable` naming the endpoint,
 * after at most `maxAttempts` attempts — with the defaults, a closed port fails in well under a second and
 * a silent host within about 2 × `connectionTimeoutMs`.
 *
 * @throws AppError `invalid_argument` for a `listPageSize` outside 1–1000 or a `partSizeBytes` below 5 MiB.
 */
export function createS3ArchiveStore(options: S3ArchiveStoreOptions): S3ArchiveStore {
  const listPageSize = options.listPageSize ?? DEFAULT_LIST_PAGE_SIZE;
  const partSizeBytes = options.partSizeBytes ?? DEFAULT_PART_SIZE_BYTES;
  if (!(Number.isInteger(listPageSize) && listPageSize >= 1 && listPageSize <= 1000)) {
    throw new AppError("invalid_argument", `invalid list page size [listPageSize=${String(listPageSize)}]`);
  }
  if (!(Number.isInteger(partSizeBytes) && partSizeBytes >= MIN_PART_SIZE_BYTES)) {
    throw new AppError("invalid_argument", `invalid part size [partSizeBytes=${String(partSizeBytes)}]`);
  }
  const stats: ArchiveStoreStats = { bytesReceived: 0, requests: 0 };
  const client = createS3Client(options, stats);
  const { bucket } = options;
  const endpoint = options.endpoint ?? `https://s3.${options.region}.amazonaws.com`;
  // Object requests (put of a buffered body, get, stat, delete) skip the SDK's command stack (s3-signed-request.ts);
  // listing, multipart and bucket set-up through the SDK, whose credential chain both share.
  const requester = createSignedRequester({
    endpoint,
    region: options.region,
    bucket,
    forcePathStyle: options.forcePathStyle === true,
    credentials: () => client.config.credentials(),
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    connectionTimeoutMs: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    stats,
  });
  const context = (operation: string, key?: string): S3CallContext =>
    key === undefined ? { endpoint, bucket, operation } : { endpoint, bucket, operation, key };

  let bucketReady: Promise<void> | undefined;
  const ensureBucket = async (callOptions: StoreCallOptions = {}): Promise<void> => {
    try {
      await createBucketIfMissing(client, bucket, callOptions.signal);
    } catch (error) {
      throw appErrorFromS3Error(error, context("ensure-bucket"), callOptions.signal);
    }
  };
  // With createBucketIfMissing, every call first awaits one shared ensureBucket; a failure is retried next call.
  const ready = async (): Promise<void> => {
    if (options.createBucketIfMissing !== true) return;
    bucketReady ??= ensureBucket().catch((error: unknown) => {
      bucketReady = undefined;
      throw error;
    });
    await bucketReady;
  };

  /** Runs one store call: key check (when `key` is given), bucket set-up, error translation. */
  const call = async <T>(operation: string, key: string | undefined, signal: AbortSignal | undefined, run: () => Promise<T>) => {
    if (key !== undefined) assertValidKey(key);
    throwIfAborted(signal, `operation=${operation}, key=${key ?? ""}`);
    try {
      await ready();
      return await run();
    } catch (error) {
      throw appErrorFromS3Error(error, context(operation, key), signal);
    }
  };

  const stat = (key: string, callOptions: StoreCallOptions = {}) =>
    call("stat", key, callOptions.signal, async () => {
      try {
        const head = await requester.send({ operation: "HeadObject", method: "HEAD", key, ...signalOf(callOptions.signal) });
        return { sizeBytes: Number(head.headers["content-length"] ?? 0) };
      } catch (error) {
        if (httpStatusOf(error) === 404 && errorNameOf(error) !== "NoSuchBucket") return undefined;
        throw error;
      }
    });

  const get = (key: string, getOptions: GetOptions = {}) => {
    const { range, signal } = getOptions;
    return call("get", key, signal, async () => {
      if (range !== undefined) assertValidRange(range);
      if (range !== undefined && range.start === range.end) {
        if ((await stat(key, getOptions)) === undefined) {
          throw new AppError("not_found", `archive object not found [bucket=${bucket}, key=${key}]`);
        }
        return new Uint8Array(0);
      }
      try {
        const headers = range === undefined ? {} : { range: `bytes=${String(range.start)}-${String(range.end - 1)}` };
        return (await requester.send({ operation: "GetObject", method: "GET", key, headers, ...signalOf(signal) })).body;
      } catch (error) {
        // 416: the range starts at or past the end of an existing object, which reads as empty.
        if (range !== undefined && httpStatusOf(error) === 416) return new Uint8Array(0);
        throw error;
      }
    });
  };

  // ListObjectsV2 page by page; with a delimiter, the keys past it come back as common prefixes.
  async function* listPages(prefix: string, delimiter: string | undefined, signal: AbortSignal | undefined): AsyncGenerator<ListObjectsV2CommandOutput> {
    let continuationToken: string | undefined;
    do {
      throwIfAborted(signal, `operation=list, prefix=${prefix}`);
      const page = await call("list", undefined, signal, () =>
        client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            Delimiter: delimiter,
            MaxKeys: listPageSize,
            ContinuationToken: continuationToken,
          }),
          sendOptions(signal),
        ),
      );
      yield page;
      continuationToken = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (continuationToken !== undefined);
  }

  return {
    stats,
    ensureBucket,
    close: () => {
      client.destroy();
      requester.close();
    },
    put: (key, body, putOptions = {}) =>
      call("put", key, putOptions.signal, () => {
        if (putOptions.sha256Hex !== undefined) checkedSha256(putOptions.sha256Hex);
        return putS3Object(
          { client, requester, bucket, key, partSizeBytes, cleanupTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS },
          body,
          putOptions,
        );
      }),
    get,
    stat,
    exists: async (key, callOptions = {}) => (await stat(key, callOptions)) !== undefined,
    delete: (key, callOptions = {}) =>
      call("delete", key, callOptions.signal, async () => {
        await requester.send({ operation: "DeleteObject", method: "DELETE", key, ...signalOf(callOptions.signal) });
      }),
    async *list(prefix, callOptions = {}) {
      assertValidPrefix(prefix);
      for await (const page of listPages(prefix, undefined, callOptions.signal))
        for (const object of page.Contents ?? []) if (object.Key !== undefined) yield object.Key;
    },
    async *listFolders(prefix, callOptions = {}) {
      assertValidFolderPrefix(prefix);
      for await (const page of listPages(prefix, "/", callOptions.signal))
        for (const common of page.CommonPrefixes ?? []) if (common.Prefix !== undefined) yield common.Prefix;
    },
  };
}
