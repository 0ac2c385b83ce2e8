// Every deployment file names only documented variables; docker-compose and kubectl validate offline when installed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { SERVICES, documented, loupeNames, parseManifests, read, root } from "../support/deploy-files.js";

describe("every deployment file", () => {
  it("names only LOUPE_* variables that docs/configuration.md documents", () => {
    const deployFiles = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? deployFiles(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
      );
    for (const file of ["docker-compose.yml", ...deployFiles("deploy")]) {
      const undocumented = loupeNames(read(file)).filter((name) => !documented.has(name));
      assert.deepEqual(undocumented, [], `${file} uses undocumented variables`);
    }
  });
});

// ---------- the tools' own offline validators, when installed
function firstWorking(candidates: readonly (readonly string[])[]): readonly string[] | undefined {
  return candidates.find(([command, ...args]) => spawnSync(command!, [...args, "version"], { encoding: "utf8", timeout: 30_000 }).status === 0);
}
const composeCommand = firstWorking([["docker-compose"], ["docker", "compose"]]);
const kubectl = spawnSync("kubectl", ["version", "--client"], { encoding: "utf8", timeout: 30_000 }).status === 0;

describe("offline validators", () => {
  it(
    "docker-compose config -q accepts docker-compose.yml",
    { skip: composeCommand ? false : "docker-compose is not installed (apt-get install -y --no-install-recommends docker-compose)" },
    () => {
      const [command, ...args] = composeCommand!;
      const result = spawnSync(command!, [...args, "-f", "docker-compose.yml", "config", "-q"], { cwd: root, encoding: "utf8", timeout: 60_000 });
      assert.equal(result.status, 0, result.stderr || String(result.error));
    },
  );

  it(
    "kubectl kustomize renders deploy/k8s into namespace loupe",
    { skip: kubectl ? false : "kubectl is not installed (apt-get install -y --no-install-recommends kubernetes-client)" },
    () => {
      const result = spawnSync("kubectl", ["kustomize", "deploy/k8s"], { cwd: root, encoding: "utf8", timeout: 60_000 });
      assert.equal(result.status, 0, result.stderr || String(result.error));
      const rendered = parseManifests(result.stdout, "kubectl kustomize output");
      const kinds = rendered.map((manifest) => `${manifest.kind}/${manifest.metadata.name}`).sort();
      for (const service of SERVICES)
        for (const kind of ["Deployment", "Service"]) assert.ok(kinds.includes(`${kind}/${service}`), `${kind}/${service} not rendered`);
      for (const manifest of rendered.filter((candidate) => candidate.kind !== "Namespace"))
        assert.equal(manifest.metadata.namespace, "loupe", `${manifest.kind}/${manifest.metadata.name}`);
    },
  );
});
