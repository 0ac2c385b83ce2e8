#!/usr/bin/env node
// Packs the `loupe` command as an installable npm package, `loupe-context` (the name `loupe` on npm
// is an unrelated package): the workspace's own code bundled by esbuild into dist/, third-party
// dependencies declared with the exact versions the workspace uses. Prints the tarball's path.
//
//   node scripts/pack-cli.mjs [--out DIR]      # default DIR: dist/ in the checkout
//   npm install --global ./dist/loupe-context-<version>.tgz   # then: loupe --help
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGE_NAME = "loupe-context";
const outIndex = process.argv.indexOf("--out");
const outDir = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(ROOT, "dist"));

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const workspaceDirs = new Map();
for (const group of ["packages", "services"]) {
  for (const name of execFileSync("ls", [join(ROOT, group)], { encoding: "utf8" })
    .trim()
    .split("\n")) {
    const manifest = readJson(join(ROOT, group, name, "package.json"));
    workspaceDirs.set(manifest.name, join(ROOT, group, name));
  }
}

// Third-party dependencies of every workspace package the CLI reaches.
const external = {};
const seen = new Set();
const visit = (name) => {
  if (seen.has(name)) return;
  seen.add(name);
  const manifest = readJson(join(workspaceDirs.get(name), "package.json"));
  for (const [dependency, version] of Object.entries(manifest.dependencies ?? {})) {
    if (workspaceDirs.has(dependency)) visit(dependency);
    else if (external[dependency] !== undefined && external[dependency] !== version)
      throw new Error(`${dependency}: two versions in the workspace (${external[dependency]}, ${version})`);
    else external[dependency] = version;
  }
};
const cli = readJson(join(ROOT, "services/loupe/package.json"));
visit(cli.name);

const staging = mkdtempSync(join(tmpdir(), "loupe-pack-"));
try {
  await build({
    // The archive's pattern matcher and the gateway's token counters run in worker threads that load their
    // own module beside the bundle.
    entryPoints: [
      join(ROOT, "services/loupe/src/main.ts"),
      join(ROOT, "services/archive/src/pattern-match-worker.ts"),
      join(ROOT, "services/gateway/src/project/count-worker.ts"),
    ],
    entryNames: "[name]",
    outdir: join(staging, "dist"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["source"],
    external: Object.keys(external).flatMap((name) => [name, `${name}/*`]),
    sourcemap: false,
    legalComments: "none",
    logLevel: "warning",
  });
  const manifest = {
    name: PACKAGE_NAME,
    version: cli.version,
    description:
      "Loupe: a context backend for LLM agents — first views of long tool results with exact continuations, background handover notes, the history cut.",
    type: "module",
    bin: { loupe: "dist/main.js" },
    files: ["dist", "README.md"],
    engines: { node: ">=20.11" },
    license: "UNLICENSED",
    dependencies: Object.fromEntries(Object.entries(external).sort(([a], [b]) => a.localeCompare(b))),
  };
  writeFileSync(join(staging, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  cpSync(join(ROOT, "README.md"), join(staging, "README.md"));
  mkdirSync(outDir, { recursive: true });
  const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", outDir], { cwd: staging, encoding: "utf8" }).trim().split("\n").at(-1);
  process.stdout.write(join(outDir, packed) + "\n");
} finally {
  rmSync(staging, { recursive: true, force: true });
}
