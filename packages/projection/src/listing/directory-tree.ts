/** The directories a listing shows, as a tree of ids (0 is the unnamed root above everything). */
export interface DirectoryTree {
  /**
   * The id of `path` ("a/b", "./a", "/x/y"; no trailing "/"), registering it and its ancestors.
   * `parent`, when given, is the id of `parentPath(path)` (already registered): only the last name is then looked up.
   */
  add(path: string, parent?: number): number;
  /** The id of `path` when registered. */
  find(path: string): number | undefined;
  /** The id of `path` when registered, given the id of its parent (`parentPath(path)`); cheaper than `find`, as only the last name is looked up. */
  child(parent: number, path: string): number | undefined;
  /** Per id: the parent's id (-1 for the root; always smaller than the id), depth (root 0), and path as printed. */
  readonly parent: number[];
  readonly depth: number[];
  readonly path: string[];
  /** The deepest directory containing both. */
  commonAncestor(a: number, b: number): number;
}

/** The directory part of a path: "a/b/c" → "a/b", "./a" → ".", "/a" → "/", "a" → "" (the root). */
export function parentPath(path: string): string {
  // A loop from the end: lastIndexOf is a runtime call, and this runs for most lines of a listing.
  let slash = path.length - 1;
  while (slash >= 0 && path.charCodeAt(slash) !== 47) slash--;
  if (slash === -1) return "";
  if (slash === 0) return path === "/" ? "" : "/";
  return path.slice(0, slash);
}

/** Creates an empty tree holding only the root (id 0, path ""). */
export function createDirectoryTree(): DirectoryTree {
  const ids = new Map<string, number>([["", 0]]);
  const parent = [-1];
  const depth = [0];
  const path = [""];
  // Per id: its children by the name after the parent's path (see nameIn).
  const children: (Map<string, number> | undefined)[] = [];
  // Per id: a bit per length of its children's names (modulo 32), so most `child` misses need no lookup.
  const nameLengths: number[] = [];
  // Consecutive lines mostly sit in one directory: remember the last answer.
  let lastName = "";
  let lastId = 0;
  const register = (item: string, above: number): number => {
    const id = path.length;
    ids.set(item, id);
    const siblings = children[above] ?? new Map<string, number>();
    children[above] = siblings;
    const name = nameIn(path[above] ?? "", item);
    siblings.set(name, id);
    nameLengths[above] = (nameLengths[above] ?? 0) | (1 << (name.length & 31));
    parent.push(above);
    depth.push((depth[above] ?? 0) + 1);
    path.push(item);
    return id;
  };
  const add = (name: string, known?: number): number => {
    if (name === lastName) return lastId;
    lastName = name;
    if (known !== undefined) {
      lastId = child(known, name) ?? register(name, known);
      return lastId;
    }
    const found = ids.get(name);
    if (found !== undefined) {
      lastId = found;
      return found;
    }
    // Register missing ancestors first, without recursion (paths can be deep).
    const missing: string[] = [];
    let cursor = name;
    while (!ids.has(cursor)) {
      missing.push(cursor);
      cursor = parentPath(cursor);
    }
    let above = ids.get(cursor) ?? 0;
    for (const item of missing.reverse()) above = register(item, above);
    lastId = above;
    return above;
  };
  const commonAncestor = (first: number, second: number): number => {
    let a = first;
    let b = second;
    while ((depth[a] ?? 0) > (depth[b] ?? 0)) a = parent[a] ?? 0;
    while ((depth[b] ?? 0) > (depth[a] ?? 0)) b = parent[b] ?? 0;
    while (a !== b) {
      a = parent[a] ?? 0;
      b = parent[b] ?? 0;
    }
    return a;
  };
  const child = (id: number, name: string): number | undefined => {
    const above = path[id] ?? "";
    const length = Math.max(0, name.length - (above === "" ? 0 : above === "/" ? 1 : above.length + 1));
    if (((nameLengths[id] ?? 0) & (1 << (length & 31))) === 0) return undefined;
    return children[id]?.get(nameIn(above, name));
  };
  return { add, find: (name) => ids.get(name), child, parent, depth, path, commonAncestor };
}

/** What a path adds to its parent's: "a/b/c" in "a/b" → "c", "/a" in "/" → "a", "a" in "" → "a". */
function nameIn(parent: string, path: string): string {
  if (parent === "") return path;
  return path.slice(parent === "/" ? 1 : parent.length + 1);
}
