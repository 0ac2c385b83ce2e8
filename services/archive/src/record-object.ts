import type { StoredRecord } from "./result-record.js";

/** A record as loaded, with the content its object carries when it is inline. */
export interface LoadedResult {
  record: StoredRecord;
  /** The content, for an inline record; undefined when it lives in the tenant's blob. */
  content: Uint8Array | undefined;
}

const NEWLINE = 0x0a;

/**
 * A record's stored object: the record as one line of JSON; with `content` (an inline record, marked
 * `inline: true` here, so the mark and the bytes never disagree), a newline and then the content's bytes
 * as they are (JSON text never holds a raw newline, so the first one ends the record).
 */
export function encodeRecordObject(record: StoredRecord, content?: Uint8Array): Uint8Array {
  const { inline: _inline, ...plain } = record;
  if (content === undefined) return Buffer.from(JSON.stringify(plain), "utf8");
  return Buffer.concat([Buffer.from(JSON.stringify({ ...plain, inline: true }), "utf8"), Buffer.from([NEWLINE]), content]);
}

/**
 * A record's stored object read back (see encodeRecordObject).
 * @throws SyntaxError for a torn or foreign object: not JSON, or an inline record whose content is not all there
 */
export function parseRecordObject(bytes: Uint8Array): LoadedResult {
  const end = bytes.indexOf(NEWLINE);
  const record = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, end === -1 ? bytes.byteLength : end).toString("utf8")) as StoredRecord;
  if (record.inline !== true) {
    if (end !== -1) throw new SyntaxError("record object holds content but does not say it is inline");
    return { record, content: undefined };
  }
  const content = end === -1 ? new Uint8Array(0) : bytes.subarray(end + 1);
  if (end === -1 || content.byteLength !== record.sizeBytes) {
    throw new SyntaxError(`inline record's content is not all there [bytes=${String(content.byteLength)}, size=${String(record.sizeBytes)}]`);
  }
  return { record, content };
}
