import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "@loupe/testing";

// Nothing in the repository may depend on where the checkout lives: a user's clone sits anywhere.
const root = repoRoot();
// `npm test` runs the suite from a copy in a temporary folder and names the checkout it copied.
const origin = process.env["LOUPE_TEST_ORIGIN_CHECKOUT"];
const LOCK_FILES = new Set(["pnpm-lock.yaml", "package-lock.json"]);
const SKIPPED_FOLDERS = new Set([".git", "node_modules", "dist", ".loupe", ".scratch", "coverage"]);

/** Tracked files (git), or every file outside the build and install folders when this is no git checkout. */
function repositoryFiles(): string[] {
  if (existsSync(join(root, ".git"))) {
    const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" });
    return listed.split("\0").filter((file) => file !== "" && existsSync(join(root, file)));
  }
  const files: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) walk(join(directory, entry.name));
      else if (entry.isFile()) files.push(relative(root, join(directory, entry.name)));
    }
  };
  walk(root);
  return files;
}

/** `file:line` of every line of a repository file that holds `needle`. */
function linesHolding(needle: string): string[] {
  const found: string[] = [];
  for (const file of repositoryFiles()) {
    if (LOCK_FILES.has(file.split("/").pop() ?? "")) continue;
    const path = join(root, file);
    if (!statSync(path).isFile()) continue;
    const text = readFileSync(path, "latin1");
    if (!text.includes(needle)) continue;
    text.split("\n").forEach((line, index) => {
      if (line.includes(needle)) found.push(`${file}:${String(index + 1)}`);
    });
  }
  return found;
}

describe("the checkout's location", () => {
  it("no repository file holds the checkout's own absolute path", () => {
    assert.ok(root.length > 1);
    assert.deepEqual(linesHolding(root), []);
  });

  it(
    "no repository file holds the path of the checkout this run was copied from",
    { skip: origin === undefined ? "the suite runs in place (LOUPE_TEST_ORIGIN_CHECKOUT unset)" : false },
    () => {
      assert.deepEqual(linesHolding(origin ?? ""), []);
    },
  );

  it("the folders test servers and tools keep their state in come from the clone or the temporary folder", () => {
    // A fixed folder such as /tmp/loupe-rgw would be shared by every clone on the machine.
    const fixed = /(?<![\w$.{}-])\/tmp\/[\w.-]/;
    const offenders: string[] = [];
    for (const file of repositoryFiles().filter(
      (name) => name.startsWith("scripts/") || name.startsWith("packages/testing/") || name.startsWith("test/support/"),
    )) {
      readFileSync(join(root, file), "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (fixed.test(line)) offenders.push(`${file}:${String(index + 1)}: ${line.trim()}`);
        });
    }
    assert.deepEqual(offenders, []);
  });
});
