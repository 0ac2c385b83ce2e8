// deploy/k8s-stores: Redis (append-only) and NATS (JetStream on files) for clusters that have neither.
// The manifests are checked offline, and each container's own arguments are run with the real server
// binary (the data folder moved to a temporary one), so a flag the server does not know fails here.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Redis } from "ioredis";
import { parse } from "yaml";
import { freePort } from "@loupe/testing";
import { parseManifests, read, root, selects, yamlFiles, type Container, type Manifest } from "../support/deploy-files.js";

interface StatefulSet extends Manifest {
  spec: NonNullable<Manifest["spec"]> & { volumeClaimTemplates?: { metadata: { name: string } }[] };
}

const manifests = yamlFiles("deploy/k8s-stores").flatMap((file) => parseManifests(read(file), file));
const find = (kind: string, name: string): Manifest | undefined => manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
const config = parseManifests(read("deploy/k8s/config.yaml"), "deploy/k8s/config.yaml")[0]?.data ?? {};
const hasCommand = (command: string, ...args: string[]): boolean =>
  spawnSync(command, args.length > 0 ? args : ["--version"], { encoding: "utf8" }).status === 0;

/** The one container of a StatefulSet, whose data folder must be a claim of its own. */
function storeContainer(name: string): { set: StatefulSet; container: Container } {
  const set = find("StatefulSet", name) as StatefulSet | undefined;
  const container = set?.spec.template?.spec.containers[0];
  assert.ok(set && container, `no StatefulSet ${name}`);
  const claims = (set.spec.volumeClaimTemplates ?? []).map((claim) => claim.metadata.name);
  const data = container.volumeMounts?.find((mount) => mount.mountPath === "/data");
  assert.ok(data && claims.includes(data.name), `${name}: /data must be a PersistentVolumeClaim`);
  assert.equal(set.metadata.namespace, name);
  assert.ok(selects(set.spec.selector, set.spec.template?.metadata.labels));
  assert.equal(set.spec.template?.spec.securityContext?.runAsNonRoot, true);
  assert.equal(container.securityContext?.allowPrivilegeEscalation, false);
  return { set, container };
}

/** The Service a Loupe URL of deploy/k8s/config.yaml names (`scheme://name.namespace.svc.cluster.local:port`). */
function assertServiceFor(url: string | undefined, name: string): void {
  assert.ok(url, `deploy/k8s/config.yaml has no URL for ${name}`);
  const { hostname, port } = new URL(url);
  assert.equal(hostname, `${name}.${name}.svc.cluster.local`);
  const service = find("Service", name);
  assert.ok(service?.spec?.ports && service.metadata.namespace === name, `no Service ${name} in namespace ${name}`);
  assert.ok(selects(service.spec.selector, find("StatefulSet", name)?.spec?.template?.metadata.labels));
  assert.ok(
    service.spec.ports.some((entry) => String(entry.port) === port),
    `Service ${name} has no port ${port}`,
  );
}

describe("deploy/k8s-stores", () => {
  const scratch: string[] = [];
  after(async () => {
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
  });

  it("lists every manifest in its kustomization.yaml", () => {
    const kustomization = parse(read("deploy/k8s-stores/kustomization.yaml")) as { resources: string[] };
    const listed = kustomization.resources.map((resource) => `deploy/k8s-stores/${resource}`).sort();
    assert.deepEqual(
      listed,
      yamlFiles("deploy/k8s-stores")
        .filter((file) => !file.endsWith("/kustomization.yaml"))
        .sort(),
    );
  });

  it("runs Redis with append-only persistence on a claim, where deploy/k8s/config.yaml looks for it", () => {
    const { container } = storeContainer("redis");
    const args = container.args ?? [];
    assert.equal(args[args.indexOf("--appendonly") + 1], "yes");
    assert.equal(args[args.indexOf("--dir") + 1], "/data");
    assertServiceFor(config.LOUPE_REDIS_URL, "redis");
  });

  it("runs NATS with JetStream on files on a claim, where deploy/k8s/config.yaml looks for it", () => {
    const { container } = storeContainer("nats");
    const args = container.args ?? [];
    assert.ok(args.includes("--jetstream"));
    assert.equal(args[args.indexOf("--store_dir") + 1], "/data");
    assertServiceFor(config.LOUPE_NATS_URL, "nats");
  });

  it("the Redis container's arguments start a real redis-server that writes an append-only file", { skip: !hasCommand("redis-server") }, async () => {
    const [command, ...args] = storeContainer("redis").container.args ?? [];
    const dir = await mkdtemp(join(tmpdir(), "loupe-k8s-redis-"));
    scratch.push(dir);
    const port = await freePort();
    const server = spawn(command ?? "", [...args.map((arg) => (arg === "/data" ? dir : arg)), "--port", String(port), "--bind", "127.0.0.1"]);
    let output = "";
    await new Promise<void>((resolve, reject) => {
      server.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) resolve();
      });
      server.once("exit", () => reject(new Error(`redis-server exited:\n${output}`)));
    });
    const client = new Redis({ port, host: "127.0.0.1" });
    try {
      assert.deepEqual(await client.config("GET", "appendonly"), ["appendonly", "yes"]);
      assert.deepEqual(await client.config("GET", "appendfsync"), ["appendfsync", "everysec"]);
      await client.set("loupe-probe", "1");
      assert.equal(await client.get("loupe-probe"), "1");
      assert.ok((await readdir(dir)).includes("appendonlydir"), "the append-only file is in the data folder");
    } finally {
      client.disconnect();
      server.kill("SIGTERM");
    }
  });

  it("the NATS container's arguments start a real nats-server with JetStream on its store folder", { skip: !hasCommand("nats-server") }, async () => {
    const { container } = storeContainer("nats");
    const [command, ...args] = container.args ?? [];
    const dir = await mkdtemp(join(tmpdir(), "loupe-k8s-nats-"));
    scratch.push(dir);
    const [client, monitor] = [await freePort(), await freePort()];
    const rewritten = args.map((arg) => (arg === "/data" ? dir : arg === "8222" ? String(monitor) : arg));
    const server = spawn(command ?? "", [...rewritten, "--port", String(client), "--addr", "127.0.0.1"], { stdio: "ignore" });
    try {
      const probe = container.readinessProbe?.httpGet?.path ?? "";
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
        status = await fetch(`http://127.0.0.1:${String(monitor)}${probe}`).then(
          (response) => response.status,
          () => 0,
        );
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(status, 200, `readiness ${probe} answers 200`);
      const jsz = (await (await fetch(`http://127.0.0.1:${String(monitor)}/jsz`)).json()) as { config?: { store_dir?: string } };
      assert.equal(jsz.config?.store_dir, join(dir, "jetstream"));
    } finally {
      server.kill("SIGTERM");
    }
  });

  it("kubectl kustomize renders it", { skip: !hasCommand("kubectl", "version", "--client") && "kubectl is not installed" }, () => {
    const result = spawnSync("kubectl", ["kustomize", "deploy/k8s-stores"], { cwd: root, encoding: "utf8" });
    assert.equal(result.status, 0, result.stderr);
    const kinds = parseManifests(result.stdout, "kubectl kustomize output").map((manifest) => `${manifest.kind}/${manifest.metadata.name}`);
    for (const expected of ["StatefulSet/redis", "StatefulSet/nats", "Service/redis", "Service/nats"]) assert.ok(kinds.includes(expected), expected);
  });
});
