import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, it } from "node:test";
import { isAppError } from "@loupe/errors";
import { resolveApiKey } from "./resolve-api-key.js";

const key = ["sk-", "test-", "resolve-0123456789"].join("");

function assertFails(action: () => unknown, code: string, pattern: RegExp): void {
  assert.throws(action, (error: unknown) => {
    assert.ok(isAppError(error));
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes(key), "the key is never in the message");
    return true;
  });
}

describe("resolveApiKey()", () => {
  const dir = mkdtempSync(join(tmpdir(), "loupe-key-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("reads env:NAME from the given environment", () => {
    assert.equal(resolveApiKey("env:VENDOR_KEY", { VENDOR_KEY: ` ${key}\n` }), key);
  });

  it("reads file:/path, trimmed, also as a file URL", () => {
    const path = join(dir, "key.txt");
    writeFileSync(path, `${key}\n`);
    assert.equal(resolveApiKey(`file:${path}`, {}), key);
    assert.equal(resolveApiKey(pathToFileURL(path).href, {}), key);
  });

  it("reads secret:NAME from the mounted secrets folder", () => {
    writeFileSync(join(dir, "anthropic-key"), `${key}\n`);
    assert.equal(resolveApiKey("secret:anthropic-key", { LOUPE_SECRETS_DIR: dir }), key);
    assertFails(() => resolveApiKey("secret:../etc/passwd", { LOUPE_SECRETS_DIR: dir }), "invalid_argument", /secret:NAME/);
    assertFails(() => resolveApiKey("secret:absent", { LOUPE_SECRETS_DIR: dir }), "failed_precondition", /reason=ENOENT/);
  });

  it("names the reference, never a value, when the key is missing", () => {
    assertFails(() => resolveApiKey("env:VENDOR_KEY", {}), "failed_precondition", /\[reference=env:VENDOR_KEY\]/);
    assertFails(() => resolveApiKey("env:VENDOR_KEY", { VENDOR_KEY: "  " }), "failed_precondition", /env:VENDOR_KEY/);
    assertFails(() => resolveApiKey(`file:${join(dir, "absent")}`, {}), "failed_precondition", /reason=ENOENT/);
    const empty = join(dir, "empty.txt");
    writeFileSync(empty, "\n");
    assertFails(() => resolveApiKey(`file:${empty}`, {}), "failed_precondition", /empty/);
  });

  it("refuses other references without repeating them (a pasted key must not reach a log)", () => {
    for (const reference of [key, "vault:x", "env:", "env:1BAD", "file:"])
      assertFails(() => resolveApiKey(reference, { [key]: "x" }), "invalid_argument", /env:NAME|file:\/path/);
  });
});
