import { AppError } from "@loupe/errors";

const KEY_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const PREFIX_CHARACTERS = /^[A-Za-z0-9._/-]*$/;

/**
 * Refuses a key no adapter may store: empty, absolute, with an empty segment, a segment starting with `.`
 * (this covers `.` and `..`, and keeps the filesystem adapter's temporary files out of the key space), or a
 * character outside `[A-Za-z0-9._-/]`. Both adapters apply the same rule so embedded and distributed
 * modes accept the same keys.
 *
 * @throws AppError `invalid_argument` naming the key.
 * @internal
 */
export function assertValidKey(key: string): void {
  if (key.length > 0 && key.length <= 1024 && key.split("/").every((segment) => KEY_SEGMENT.test(segment))) return;
  throw new AppError("invalid_argument", `invalid archive key [key=${JSON.stringify(key.slice(0, 200))}]`);
}

/**
 * Refuses a list prefix that no valid key could start with through traversal: absolute, with `..` or `.`
 * segments, empty inner segments, or characters outside `[A-Za-z0-9._-/]`. `""` (everything) is valid.
 *
 * @throws AppError `invalid_argument` naming the prefix.
 * @internal
 */
export function assertValidPrefix(prefix: string): void {
  const segments = prefix.split("/");
  const inner = segments.slice(0, -1);
  const valid =
    PREFIX_CHARACTERS.test(prefix) &&
    !prefix.startsWith("/") &&
    inner.every((segment) => KEY_SEGMENT.test(segment)) &&
    !(segments.at(-1) ?? "").startsWith(".");
  if (valid) return;
  throw new AppError("invalid_argument", `invalid archive key prefix [prefix=${JSON.stringify(prefix.slice(0, 200))}]`);
}

/**
 * Refuses a folder prefix (see ArchiveStore.listFolders): a valid prefix that is `""` or ends with `/`.
 *
 * @throws AppError `invalid_argument` naming the prefix.
 * @internal
 */
export function assertValidFolderPrefix(prefix: string): void {
  assertValidPrefix(prefix);
  if (prefix === "" || prefix.endsWith("/")) return;
  throw new AppError("invalid_argument", `a folder prefix ends with "/" [prefix=${JSON.stringify(prefix.slice(0, 200))}]`);
}
