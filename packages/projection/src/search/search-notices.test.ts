import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commonDirectory } from "./search-notices.js";

describe("commonDirectory()", () => {
  it("factors out the directory every name starts with", () => {
    assert.equal(commonDirectory(["/testbed/django/a.py", "/testbed/django/db/b.py"]), "/testbed/django/");
  });

  it("is empty when an absolute name meets a relative one (and returns)", () => {
    assert.equal(commonDirectory(["/opt/lib/python3.11/importlib/__init__.py", "tests/unittest_nodes.py"]), "");
    assert.equal(commonDirectory(["/a.py", "b.py"]), "");
  });

  it("is empty when the shared part is only the root", () => {
    assert.equal(commonDirectory(["/usr/a.py", "/opt/b.py"]), "");
  });
});
