import { open } from "node:fs/promises";
import { AppError } from "@loupe/errors";

/** A file of JSON objects, one a line, written as records come. */
export interface JsonLinesFile {
  write(records: readonly object[]): void;
  /** Ends the file; rejects with the first error writing it met. */
  close(): Promise<void>;
}

/**
 * Opens (creates or truncates) `path` for `flag`'s records before any work is done, so a path that cannot be
 * written is refused at once rather than after a long replay.
 * @throws AppError `invalid_argument` naming the flag and the path when it cannot be opened for writing
 */
export async function openJsonLinesFile(flag: string, path: string): Promise<JsonLinesFile> {
  const handle = await open(path, "w").catch((error: unknown) => {
    throw new AppError("invalid_argument", `${flag} file cannot be written [path=${path}, reason=${error instanceof Error ? error.message : String(error)}]`, {
      cause: error,
    });
  });
  const stream = handle.createWriteStream();
  let failed: unknown;
  stream.on("error", (error) => (failed ??= error));
  return {
    write: (records) => {
      if (failed === undefined && records.length > 0) stream.write(records.map((record) => JSON.stringify(record) + "\n").join(""));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        stream.end(() =>
          failed === undefined ? resolve() : reject(new AppError("unavailable", `${flag} file was not written whole [path=${path}]`, { cause: failed })),
        );
      }),
  };
}
