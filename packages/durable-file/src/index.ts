/**
 * @loupe/durable-file: the durable file writes of Loupe's embedded adapters — an atomic, fsynced
 * file replacement and the one group-committed append log — shared by the embedded bus, the
 * embedded state store and the file archive store.
 *
 * @packageDocumentation
 */

export { AppendLog } from "./append-log.js";
export { syncDirectory, writeAll, writeFileDurably } from "./write-file-durably.js";
