// The static import graph of the workspace's TypeScript sources: which files a module loads, and
// which npm packages they reach. Type-only imports load nothing and are skipped; dynamic imports
// are followed unless asked not to (a lazily loaded module is still loaded when its path runs). Workspace packages
// resolve through their package.json's "source" export, as `--conditions=source` resolves them.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

interface Manifest {
  name: string;
  exports?: Record<string, { source?: string }>;
}

/** What one entry module reaches. */
export interface Reach {
  /** Workspace files loaded, relative to the root. */
  files: string[];
  /** npm packages loaded (bare specifiers outside the workspace, `node:` modules left out), each with one file that imports it. */
  packages: Map<string, string>;
}

const IMPORT = /(?:^|[;\n])\s*(?:import|export)\s+(?!type[\s{])(?:[^;'"]*?\sfrom\s+)?["']([^"']+)["']/g;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** Specifiers a source loads at run time (type-only imports and comments' mentions aside); dynamic imports unless `dynamic` is false. */
export function loadedSpecifiers(source: string, dynamic = true): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(IMPORT), ...(dynamic ? code.matchAll(DYNAMIC) : [])].map((match) => match[1]!);
}

function workspaceManifests(root: string): Map<string, { folder: string; manifest: Manifest }> {
  const found = new Map<string, { folder: string; manifest: Manifest }>();
  for (const group of ["packages", "services"]) {
    for (const name of readdirSync(join(root, group))) {
      const folder = join(root, group, name);
      if (!existsSync(join(folder, "package.json"))) continue;
      const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Manifest;
      found.set(manifest.name, { folder, manifest });
    }
  }
  return found;
}

/** The "source" file a package exports at `subpath`, exactly or through a pattern ("./v1/*": "./src/*_pb.ts"). */
function exportedSource(manifest: Manifest, subpath: string): string | undefined {
  const exact = manifest.exports?.[subpath]?.source;
  if (exact !== undefined) return exact;
  for (const [key, target] of Object.entries(manifest.exports ?? {})) {
    const star = key.indexOf("*");
    if (star < 0 || target.source === undefined) continue;
    const [prefix, suffix] = [key.slice(0, star), key.slice(star + 1)];
    if (subpath.length > prefix.length + suffix.length && subpath.startsWith(prefix) && subpath.endsWith(suffix)) {
      return target.source.replace("*", subpath.slice(prefix.length, subpath.length - suffix.length));
    }
  }
  return undefined;
}

/**
 * The files and npm packages `entry` (a path relative to `root`) loads, transitively; with
 * `dynamic` false, only what it loads before running (static imports), not what it may import later.
 */
export function importReach(root: string, entry: string, dynamic = true): Reach {
  const manifests = workspaceManifests(root);
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const pending = [resolve(root, entry)];
  const resolveSpecifier = (specifier: string, from: string): string | undefined => {
    if (specifier.startsWith(".")) return resolve(dirname(from), specifier.replace(/\.js$/, ".ts"));
    if (specifier.startsWith("node:")) return undefined;
    const parts = specifier.split("/");
    const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
    const workspace = manifests.get(name);
    if (workspace === undefined) {
      if (!packages.has(name)) packages.set(name, relative(root, from));
      return undefined;
    }
    const subpath = `.${specifier.slice(name.length)}`;
    const source = exportedSource(workspace.manifest, subpath);
    if (source === undefined) throw new Error(`${relative(root, from)} imports ${specifier}, which ${name} does not export with a "source" condition`);
    return resolve(workspace.folder, source);
  };
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of loadedSpecifiers(readFileSync(file, "utf8"), dynamic)) {
      const target = resolveSpecifier(specifier, file);
      if (target !== undefined && !files.has(target)) pending.push(target);
    }
  }
  return { files: [...files].map((file) => relative(root, file)).sort(), packages };
}
