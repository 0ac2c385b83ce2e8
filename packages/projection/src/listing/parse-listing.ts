import { createDirectoryTree, parentPath, type DirectoryTree } from "./directory-tree.js";

/** A listing taken apart: which directory each line is about. */
export interface Listing {
  tree: DirectoryTree;
  /** Per line: 1 when it names an entry (a file or directory), 0 for headers, notes, blank lines. */
  isEntry: Uint8Array;
  /** Per entry line: the directory holding it; -1 for other lines. */
  parentOf: Int32Array;
  /**
   * Per line: the directory whose subtree the line belongs to in the output's
   * order (a `find` or `tree` line naming a directory stands for that
   * directory, as its contents follow it; an `ls -R` header stands for its
   * directory); -1 for lines outside any (blank lines, notes).
   */
  nodeOf: Int32Array;
  /** How the lines were read: `tree` branches, `ls` blocks (a "dir:" header each), or one path (or name) per line. */
  shape: "tree" | "blocks" | "paths";
}

const TREE_BRANCH = /^((?:(?:│|\|)[\s\u00a0]{3}|[\s\u00a0]{4})*)(?:├──|└──|\|--|`--)[\s\u00a0](.*?)\r?\n?$/;
const TREE_SUMMARY = /^\d+ director(?:y|ies)(?:, \d+ files?)?\r?\n?$/;
const LS_HEADER = /^(.+):\r?\n?$/;
// "drwxr-xr-x  2 root root 4096 Sep 10  2025 name": the name follows the date.
const LONG_FORMAT =
  /^[-dlcbpsD][rwxsStTl-]{9}[.+@]?\s.*?\s(?:(?:[A-Z][a-z]{2}\s+\d{1,2}|\d{1,2}\s+[A-Z][a-z]{2})\s+(?:\d{1,2}:\d\d|\d{4})|\d{4}-\d\d-\d\d\s+\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:\s+[+-]\d{4})?)\s(.+?)\r?\n?$/;
const NOTE = /^(?:total \d+|find: |ls: |tree: |du: |grep: )|^\s*$/;

/**
 * Takes listing output apart: `tree` (box-drawing or ASCII branches), `ls -R`
 * / `ls dir1 dir2` (a "dir:" header per block, `-l` long format too), or one
 * path per line (`find`, Glob, `ls`, `fd`). Pure; linear in the lines times
 * the path depth.
 */
export function parseListing(lines: readonly string[]): Listing {
  const total = lines.length;
  const listing: Listing = {
    tree: createDirectoryTree(),
    isEntry: new Uint8Array(total),
    parentOf: new Int32Array(total).fill(-1),
    nodeOf: new Int32Array(total).fill(-1),
    shape: "paths",
  };
  const sample = lines.slice(0, 200);
  if (sample.filter((line) => TREE_BRANCH.test(line)).length >= Math.min(3, total - 1)) {
    listing.shape = "tree";
    parseTree(lines, listing);
  } else if (lines.some((line, index) => isLsHeader(lines, index) && line !== "")) {
    listing.shape = "blocks";
    parseLsBlocks(lines, listing);
  } else parsePaths(lines, listing);
  return listing;
}

/** NOTE.test(line), skipping the regular expression for lines that cannot match (most lines of a long listing). */
function isNote(line: string): boolean {
  const first = line.charCodeAt(0);
  // t(otal) f(ind) l(s) d(u) g(rep), or a blank line: empty, or starting with whitespace (all of it is ≤ " " or non-ASCII).
  const mayMatch = line === "" || first <= 32 || first >= 0x80 || first === 116 || first === 102 || first === 108 || first === 100 || first === 103;
  return mayMatch && NOTE.test(line);
}

function clean(line: string): string {
  if (!line.endsWith("\n")) return line;
  return line.slice(0, line.endsWith("\r\n") ? -2 : -1);
}

/**
 * What entry line `index` names, as a map of omitted entries shows it: its name within its directory
 * (the path's last part for a path list, the name after the date in long format, the branch's name in a
 * tree; a symbolic link without its target), ending in "/" when the listing shows it is a directory.
 */
export function entryLabel(lines: readonly string[], listing: Listing, index: number): string {
  const line = lines[index] ?? "";
  let name: string;
  if (listing.shape === "tree") {
    name = withoutTrailingSlashes((TREE_BRANCH.exec(line)?.[2] ?? clean(line)).replace(/ -> .*$/, ""));
  } else {
    name = entryName(line);
    const directory = listing.tree.path[listing.parentOf[index] ?? -1] ?? "";
    const prefix = directory === "/" ? "/" : `${directory}/`;
    if (directory !== "" && name.startsWith(prefix) && name.length > prefix.length) name = name.slice(prefix.length);
  }
  const node = listing.nodeOf[index] ?? -1;
  const isDirectory = (node !== -1 && node !== listing.parentOf[index]) || (line.charCodeAt(0) === 100 && mayBeLongFormat(line));
  return isDirectory ? `${name}/` : name;
}

function entryName(line: string): string {
  const text = clean(line);
  const long = mayBeLongFormat(text) ? LONG_FORMAT.exec(text) : null;
  const name = long ? (long[1] ?? "") : text;
  return withoutTrailingSlashes(name.includes(" -> ") ? name.replace(/ -> .*$/, "") : name);
}

/** /^[-dlcbpsD][-rwx]/ without a regular expression call per line. */
function mayBeLongFormat(text: string): boolean {
  const type = text.charCodeAt(0);
  const mode = text.charCodeAt(1);
  // - d l c b p s D, then - r w x
  const isType = type === 45 || type === 100 || type === 108 || type === 99 || type === 98 || type === 112 || type === 115 || type === 68;
  return isType && (mode === 45 || mode === 114 || mode === 119 || mode === 120);
}

/** /:\r?\n?$/ (the line ends in ":"), without a regular expression scan of the line. */
function endsWithColon(line: string): boolean {
  let end = line.length;
  if (line.charCodeAt(end - 1) === 10) end--;
  if (line.charCodeAt(end - 1) === 13) end--;
  return line.charCodeAt(end - 1) === 58;
}

/** "a/b/" → "a/b"; "/" stays "/". */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

function isLsHeader(lines: readonly string[], index: number): boolean {
  const line = lines[index] ?? "";
  if (!endsWithColon(line)) return false;
  return LS_HEADER.test(line) && !NOTE.test(line) && (index === 0 || clean(lines[index - 1] ?? "") === "");
}

function parsePaths(lines: readonly string[], listing: Listing): void {
  const { tree, isEntry, parentOf, nodeOf } = listing;
  const paths: (string | undefined)[] = new Array<string | undefined>(lines.length);
  // Consecutive entries mostly share a directory: compare before looking it up.
  let lastDirectory = "";
  let lastId = -1;
  // Every entry's directory first, so a line naming a directory can be recognized below.
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    if (isNote(line)) continue;
    const path = entryName(line);
    if (path === "") continue;
    paths[index] = path;
    isEntry[index] = 1;
    const previous = index > 0 ? paths[index - 1] : undefined;
    const slash = lastSlash(path);
    const directory = slash > 0 ? path.slice(0, slash) : parentPath(path);
    if (lastId === -1 || directory !== lastDirectory) {
      // A directory the line before names is registered as that line's string, so the check below compares it by identity.
      const underPrevious = directory === previous;
      lastDirectory = underPrevious ? previous : directory;
      lastId = underPrevious ? tree.add(previous, parentOf[index - 1]) : tree.add(directory);
    }
    parentOf[index] = lastId;
  }
  for (let index = 0; index < lines.length; index++) {
    const path = paths[index];
    if (path === undefined) continue;
    // A directory's contents usually follow it: the next entry's directory is then this one.
    const next = index + 1 < lines.length ? (parentOf[index + 1] ?? -1) : -1;
    const parent = parentOf[index] ?? 0;
    nodeOf[index] = next !== -1 && tree.path[next] === path ? next : (tree.child(parent, path) ?? parent);
  }
}

/** The index of the last "/" in a path, -1 when none. */
function lastSlash(path: string): number {
  let index = path.length - 1;
  while (index >= 0 && path.charCodeAt(index) !== 47) index--;
  return index;
}

function parseLsBlocks(lines: readonly string[], listing: Listing): void {
  const { tree } = listing;
  let current = 0;
  lines.forEach((line, index) => {
    if (isLsHeader(lines, index)) {
      current = tree.add(withoutTrailingSlashes(clean(line).slice(0, -1)) || "/");
      listing.nodeOf[index] = current;
      return;
    }
    if (NOTE.test(line)) return;
    listing.isEntry[index] = 1;
    listing.parentOf[index] = current;
    listing.nodeOf[index] = current;
  });
}

function parseTree(lines: readonly string[], listing: Listing): void {
  const { tree } = listing;
  const stack: string[] = [];
  lines.forEach((line, index) => {
    const branch = TREE_BRANCH.exec(line);
    if (!branch) {
      // The root line (".", "src") comes before the first branch.
      if (stack.length === 0 && !NOTE.test(line) && !TREE_SUMMARY.test(line)) {
        stack.push(withoutTrailingSlashes(clean(line)));
        listing.nodeOf[index] = tree.add(stack[0] ?? "");
      }
      return;
    }
    const level = [...(branch[1] ?? "")].length / 4 + 1;
    const name = withoutTrailingSlashes((branch[2] ?? "").replace(/ -> .*$/, ""));
    stack.length = Math.max(1, level);
    const parentName = stack.slice(0, level).join("/");
    const path = parentName === "" ? name : `${parentName}/${name}`;
    stack[level] = name;
    const parent = tree.add(parentName);
    const next = TREE_BRANCH.exec(lines[index + 1] ?? "");
    const isDirectory = next !== null && [...(next[1] ?? "")].length / 4 + 1 > level;
    listing.isEntry[index] = 1;
    listing.parentOf[index] = parent;
    listing.nodeOf[index] = isDirectory ? tree.add(path) : parent;
  });
}
