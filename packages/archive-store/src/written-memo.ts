/**
 * Remembers the small bodies a file store wrote durably, so that writing the same bytes to the same
 * key again (a marker rewritten on every save) can be skipped. It knows only what its own store did:
 * any write or delete of a path forgets the path when it begins, and a write is remembered only when no
 * other write or delete of the path overlapped it.
 *
 * @internal
 */
export interface WrittenMemo {
  /** True when `path` holds exactly `body`, written durably by this store, with nothing of it since or under way. */
  holds(path: string, body: Uint8Array): boolean;
  /**
   * Marks the start of a write or delete of `path`; call the answer when it is over with the bytes it
   * left durably at `path` (undefined: failed, deleted or not worth remembering).
   */
  begin(path: string): (written: Uint8Array | undefined) => void;
}

/** Bodies up to this size are remembered. */
export const MAX_REMEMBERED_BYTES = 1024;
/** Paths remembered; the least recently used go first past this bound. */
export const MAX_REMEMBERED_PATHS = 1024;

interface Activity {
  count: number;
  overlapped: boolean;
}

/** Creates an empty {@link WrittenMemo}. @internal */
export function createWrittenMemo(maxPaths = MAX_REMEMBERED_PATHS): WrittenMemo {
  const bodies = new Map<string, Uint8Array>();
  const active = new Map<string, Activity>();
  return {
    holds(path, body) {
      if (active.has(path)) return false;
      const known = bodies.get(path);
      if (known === undefined || !sameBytes(known, body)) return false;
      bodies.delete(path);
      bodies.set(path, known);
      return true;
    },
    begin(path) {
      bodies.delete(path);
      let activity = active.get(path);
      if (activity === undefined) {
        activity = { count: 0, overlapped: false };
        active.set(path, activity);
      } else {
        activity.overlapped = true;
      }
      activity.count += 1;
      const current = activity;
      return (written) => {
        current.count -= 1;
        if (current.count === 0 && active.get(path) === current) active.delete(path);
        // With another write or delete of the path under way at any point, which one landed last is unknown.
        if (current.overlapped || written === undefined || written.byteLength > MAX_REMEMBERED_BYTES) return;
        bodies.set(path, written.slice());
        if (bodies.size > maxPaths) bodies.delete(bodies.keys().next().value as string);
      };
    },
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let index = 0; index < a.byteLength; index++) if (a[index] !== b[index]) return false;
  return true;
}
