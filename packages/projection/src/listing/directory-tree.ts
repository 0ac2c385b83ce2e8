/** The directories a listing shows, as a tree of ids (0 is the unnamed root above everything). */
export interface DirectoryTree {
  /** The id of `path` ("a/b", "./a", "/x/y"; no trailing "/"), registering it and its ancestors. */
  add(path: string): number;
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
  const slash = path.lastIndexOf("/");
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
  // Consecutive lines mostly sit in one directory: remember the last answer.
  let lastName = "";
  let lastId = 0;
  const add = (name: string): number => {
    if (name === lastName) return lastId;
    const known = ids.get(name);
    if (known !== undefined) {
      lastName = name;
      lastId = known;
      return known;
    }
    // Register missing ancestors first, without recursion (paths can be deep).
    const missing: string[] = [];
    let cursor = name;
    while (!ids.has(cursor)) {
      missing.push(cursor);
      cursor = parentPath(cursor);
    }
    let above = ids.get(cursor) ?? 0;
    for (const item of missing.reverse()) {
      const id = path.length;
      ids.set(item, id);
      const siblings = children[above] ?? new Map<string, number>();
      children[above] = siblings;
      siblings.set(nameIn(path[above] ?? "", item), id);
      parent.push(above);
      depth.push((depth[above] ?? 0) + 1);
      path.push(item);
      above = id;
    }
    lastName = name;
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
  const child = (id: number, name: string): number | undefined => children[id]?.get(nameIn(path[id] ?? "", name));
  return { add, find: (name) => ids.get(name), child, parent, depth, path, commonAncestor };
}

/** What a path adds to its parent's: "a/b/c" in "a/b" → "c", "/a" in "/" → "a", "a" in "" → "a". */
function nameIn(parent: string, path: string): string {
  if (parent === "") return path;
  return path.slice(parent === "/" ? 1 : parent.length + 1);
}
