import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import type { CompletedPart, S3Client } from "@aws-sdk/client-s3";
import type { PutOptions, PutOutcome } from "./archive-store.js";
import { bodyChunks } from "./body-chunks.js";
import { sendOptions } from "./s3-client.js";
import { errorNameOf, httpStatusOf } from "./s3-errors.js";
import { signalOf, type createSignedRequester } from "./s3-signed-request.js";
import { splitParts } from "./split-parts.js";
import type { BodyPart } from "./split-parts.js";

/** Where and how {@link putS3Object} writes. @internal */
export interface S3PutTarget {
  client: S3Client;
  /** Sends a buffered body's PutObject without the SDK's command stack (s3-signed-request.ts). */
  requester: ReturnType<typeof createSignedRequester>;
  bucket: string;
  key: string;
  partSizeBytes: number;
  /** Budget of the best-effort AbortMultipartUpload after a failure. */
  cleanupTimeoutMs: number;
}

const CONFLICT_RETRIES = 3;

/**
 * Writes one object. A Uint8Array, or a stream that ends within one part, goes up in one PutObject; a
 * stream of known `sizeBytes` larger than a part streams through one PutObject; any other stream uses a
 * multipart upload (parts of `partSizeBytes`, aborted on failure). With `ifAbsent`, PutObject and
 * CompleteMultipartUpload carry `If-None-Match: *` (412 → `"exists"`); before a multipart upload a
 * HeadObject skips the upload when the key is already there.
 *
 * Ceph RGW 16 honours `If-None-Match: *` on PutObject (verified: one of 10 racers creates) but ignores it
 * on CompleteMultipartUpload (verified: an existing object is replaced). So on RGW a multipart ifAbsent
 * put is only HeadObject-then-write: two racers that both pass the HeadObject both report `"created"`
 * and the last one wins — harmless for content-addressed blobs, whose bodies are equal. Passing
 * `sizeBytes` avoids multipart and keeps the create atomic. Throws raw SDK errors (the caller translates).
 *
 * @internal
 */
export async function putS3Object(target: S3PutTarget, body: Uint8Array | AsyncIterable<Uint8Array>, options: PutOptions): Promise<PutOutcome> {
  const chunks = bodyChunks(body, options.sizeBytes, options.signal, `key=${target.key}`);
  if (!(body instanceof Uint8Array) && options.sizeBytes !== undefined && options.sizeBytes > target.partSizeBytes) {
    return putStreamed(target, chunks, options.sizeBytes, options);
  }
  const parts = splitParts(chunks, target.partSizeBytes);
  const first = await parts.next();
  if (first.done === true) throw new Error("splitParts yielded no part");
  if (first.value.last) return putSingle(target, first.value.bytes, first.value.bytes.byteLength, options);
  return putMultipart(target, first.value, parts, options);
}

async function putStreamed(target: S3PutTarget, chunks: AsyncIterable<Uint8Array>, sizeBytes: number, options: PutOptions): Promise<PutOutcome> {
  // The SDK pipes a stream body into the request and does not watch the stream for errors: a body that
  // fails (wrong length, caller's abort) would leave the request waiting for bytes until it times out.
  // Aborting the request on a body error ends it at once, and the body's error is the one reported.
  const bodyFailed = new AbortController();
  let bodyError: unknown;
  const stream = Readable.from(chunks).on("error", (error) => {
    bodyError = error;
    bodyFailed.abort(error);
  });
  const signal = options.signal === undefined ? bodyFailed.signal : AbortSignal.any([options.signal, bodyFailed.signal]);
  try {
    return await putSingle(target, stream, sizeBytes, { ...options, signal });
  } catch (error) {
    throw bodyError ?? error;
  }
}

async function putSingle(target: S3PutTarget, body: Uint8Array | Readable, sizeBytes: number, options: PutOptions): Promise<PutOutcome> {
  const send = async (): Promise<void> => {
    if (body instanceof Uint8Array) {
      const headers: Record<string, string> = {};
      if (options.contentType !== undefined) headers["content-type"] = options.contentType;
      if (options.ifAbsent === true) headers["if-none-match"] = "*";
      // The signer takes a payload hash given as this header as it is, and S3 checks the body against it.
      if (options.sha256Hex !== undefined) headers["x-amz-content-sha256"] = options.sha256Hex;
      await target.requester.send({
        operation: "PutObject",
        method: "PUT",
        key: target.key,
        headers,
        body,
        ...signalOf(options.signal),
      });
      return;
    }
    const command = new PutObjectCommand({
      Bucket: target.bucket,
      Key: target.key,
      Body: body,
      ContentLength: sizeBytes,
      ContentType: options.contentType,
      IfNoneMatch: options.ifAbsent === true ? "*" : undefined,
    });
    await target.client.send(command, sendOptions(options.signal));
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      await send();
      return "created";
    } catch (error) {
      if (options.ifAbsent === true && httpStatusOf(error) === 412) return "exists";
      // S3 answers 409 ConditionalRequestConflict while a concurrent conditional write of the key is in
      // flight; a buffered body can simply be sent again, and the retry then sees 412 or succeeds.
      const conflict = httpStatusOf(error) === 409 && errorNameOf(error) === "ConditionalRequestConflict";
      if (!(conflict && body instanceof Uint8Array && attempt < CONFLICT_RETRIES)) throw error;
    }
  }
}

async function putMultipart(target: S3PutTarget, first: BodyPart, rest: AsyncGenerator<BodyPart, void, undefined>, options: PutOptions): Promise<PutOutcome> {
  const { client, bucket, key } = target;
  const abortSignal = options.signal;
  if (options.ifAbsent === true && (await headExists(target, abortSignal))) {
    await rest.return();
    return "exists";
  }
  const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: options.contentType }), sendOptions(abortSignal));
  const uploadId = created.UploadId;
  if (uploadId === undefined) throw new Error("CreateMultipartUpload returned no UploadId");
  try {
    const parts: CompletedPart[] = [];
    let part: BodyPart | undefined = first;
    for (let partNumber = 1; part !== undefined; partNumber += 1) {
      const uploaded = await client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: partNumber,
          Body: part.bytes,
          ContentLength: part.bytes.byteLength,
        }),
        sendOptions(abortSignal),
      );
      parts.push({ ETag: uploaded.ETag, PartNumber: partNumber });
      part = part.last ? undefined : ((await rest.next()).value ?? undefined);
    }
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
        IfNoneMatch: options.ifAbsent === true ? "*" : undefined,
      }),
      sendOptions(abortSignal),
    );
    return "created";
  } catch (error) {
    await abortUpload(target, uploadId);
    if (options.ifAbsent === true && httpStatusOf(error) === 412) return "exists";
    throw error;
  }
}

async function headExists(target: S3PutTarget, abortSignal: AbortSignal | undefined): Promise<boolean> {
  try {
    await target.client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: target.key }), sendOptions(abortSignal));
    return true;
  } catch (error) {
    if (httpStatusOf(error) === 404) return false;
    throw error;
  }
}

async function abortUpload(target: S3PutTarget, uploadId: string): Promise<void> {
  try {
    await target.client.send(
      new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: target.key, UploadId: uploadId }),
      // Not the caller's signal: it may be the reason we are here, and the parts must still be released.
      { abortSignal: AbortSignal.timeout(target.cleanupTimeoutMs) },
    );
  } catch {
    // Best effort: the original error matters more; a bucket lifecycle rule reaps what is left.
  }
}
