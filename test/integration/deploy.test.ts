// Offline checks of the deployment files: the Dockerfiles, docker-compose.yml and deploy/k8s agree
// with each other, with the `loupe` command and with docs/configuration.md (the oracle for variable
// names and default ports). No container engine runs here: when docker-compose or kubectl is
// installed, their own offline validators run too.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { repoRoot } from "@loupe/testing";
import { parse, parseAllDocuments } from "yaml";

const root = repoRoot();
const SERVICES = ["gateway", "archive", "note-worker"] as const;
type Service = (typeof SERVICES)[number];
type Mapping = Record<string, unknown>;

const read = (path: string): string => readFileSync(join(root, path), "utf8");
const loupeNames = (text: string): string[] => [...new Set(text.match(/\bLOUPE_[A-Z0-9_]+\b/g) ?? [])];

// ---------- docs/configuration.md: documented names, which service reads each, default ports
const configDoc = read("docs/configuration.md");
const documented = new Set(loupeNames(configDoc));
const owners = new Map<string, Set<Service | "all">>();
for (const section of configDoc.split(/^## /m).slice(1)) {
  const heading = section.slice(0, section.indexOf("\n")).toLowerCase();
  const owner = heading.startsWith("every service") ? "all" : SERVICES.find((service) => heading.startsWith(service));
  if (owner === undefined) continue;
  for (const [, name] of section.matchAll(/^\| `(LOUPE_[A-Z0-9_]+)`/gm)) owners.set(name!, (owners.get(name!) ?? new Set()).add(owner));
}
function defaultPorts(variable: string): Record<Service, number> {
  const row = configDoc.split("\n").find((line) => line.startsWith(`| \`${variable}\``)) ?? "";
  const ports: Partial<Record<string, number>> = Object.fromEntries([...row.matchAll(/(gateway|archive|note-worker) `(\d+)`/g)].map(([, service, port]) => [service!, Number(port)] as const));
  for (const service of SERVICES) assert.ok(ports[service], `docs/configuration.md gives no default ${variable} for ${service}`);
  return ports as Record<Service, number>;
}
const GRPC_PORT = defaultPorts("LOUPE_GRPC_PORT");
const HTTP_PORT = defaultPorts("LOUPE_HTTP_PORT");

/** Fails unless every LOUPE_* name is documented and, when the doc ties it to services, read by `service`. */
function assertVariablesFor(service: Service, names: readonly string[], where: string): void {
  for (const name of names.filter((candidate) => candidate.startsWith("LOUPE_"))) {
    assert.ok(documented.has(name), `${where}: ${name} is not in docs/configuration.md`);
    const owner = owners.get(name);
    assert.ok(owner === undefined || owner.has("all") || owner.has(service), `${where}: ${service} does not read ${name}`);
  }
}

// ---------- the `loupe` command's own list of commands (its help text)
function loupeCommands(): Set<string> {
  const help = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "services/loupe/src/main.ts", "help"], { cwd: root, encoding: "utf8", timeout: 60_000 });
  assert.equal(help.status, 0, `loupe help failed: ${help.stderr}`);
  const commands = help.stdout.slice(help.stdout.indexOf("commands:")).split("\n\n")[0]!;
  return new Set([...commands.matchAll(/^ {2}(\S+) {2,}/gm)].map(([, command]) => command!));
}

// ---------- Dockerfiles
interface Instruction { keyword: string; args: string; stage: number }
function dockerInstructions(text: string): Instruction[] {
  let stage = -1;
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const keyword = line.split(/\s/, 1)[0]!.toUpperCase();
      if (keyword === "FROM") stage += 1;
      return { keyword, args: line.slice(keyword.length).trim(), stage };
    });
}
const dockerfilePath = (service: Service): string => `deploy/docker/${service}.Dockerfile`;
const execForm = (args: string): unknown => JSON.parse(args.replace(/^.*?(?=\[)/s, ""));
function workspaceDirs(): string[] {
  const { packages } = parse(read("pnpm-workspace.yaml")) as { packages: string[] };
  return packages.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(join(root, parent)).map((name) => `${parent}/${name}`);
  }).filter((dir) => existsSync(join(root, dir, "package.json")));
}

describe("deploy/docker/<service>.Dockerfile", () => {
  const commands = loupeCommands();
  for (const service of SERVICES) {
    const text = read(dockerfilePath(service));
    const instructions = dockerInstructions(text);
    const last = Math.max(...instructions.map((instruction) => instruction.stage));
    const final = (keyword: string): Instruction[] => instructions.filter((instruction) => instruction.stage === last && instruction.keyword === keyword);

    it(`${service}: runs services/loupe/dist/main.js with a real loupe command`, () => {
      assert.deepEqual(execForm(final("ENTRYPOINT")[0]?.args ?? ""), ["node", "services/loupe/dist/main.js"]);
      assert.deepEqual(execForm(final("CMD")[0]?.args ?? ""), [service]);
      assert.ok(commands.has(service), `loupe has no command ${service}: ${[...commands].join(", ")}`);
    });

    it(`${service}: runtime stage is node:22-bookworm-slim, non-root, bound to 0.0.0.0, with the documented ports`, () => {
      assert.match(text, /^ARG NODE_IMAGE=node:22-bookworm-slim$/m);
      assert.match(final("FROM")[0]?.args ?? "", /^\$\{NODE_IMAGE\}/);
      const user = final("USER")[0]?.args ?? "root";
      assert.ok(!["root", "0", "0:0"].includes(user), `runs as ${user}`);
      const env = final("ENV").map((instruction) => instruction.args).join(" ");
      for (const setting of ["NODE_ENV=production", "LOUPE_GRPC_HOST=0.0.0.0", "LOUPE_HTTP_HOST=0.0.0.0"]) assert.ok(env.includes(setting), `ENV lacks ${setting}`);
      assert.deepEqual(final("EXPOSE")[0]?.args.split(/\s+/).map(Number), [GRPC_PORT[service], HTTP_PORT[service]]);
      const health = final("HEALTHCHECK")[0]?.args ?? "";
      assert.ok(health.includes(`|| ${HTTP_PORT[service]}) + '/healthz'`), `HEALTHCHECK does not GET /healthz on ${HTTP_PORT[service]}: ${health}`);
      assertVariablesFor(service, loupeNames(text), dockerfilePath(service));
    });

    it(`${service}: copies every workspace manifest before installing`, () => {
      const install = text.indexOf("pnpm install --frozen-lockfile");
      for (const dir of workspaceDirs()) {
        const copy = text.indexOf(`COPY ${dir}/package.json ${dir}/`);
        assert.ok(copy >= 0 && copy < install, `${dir}/package.json is not copied before pnpm install`);
      }
    });
  }

  it("shares every build stage between the three images", () => {
    const buildStages = (service: Service): string => {
      const text = read(dockerfilePath(service));
      return text.slice(text.indexOf("\nARG "), text.indexOf("FROM ${NODE_IMAGE} AS runtime"));
    };
    assert.equal(buildStages("archive"), buildStages("gateway"));
    assert.equal(buildStages("note-worker"), buildStages("gateway"));
  });

  it("keeps host-built node_modules and dist out of the build context", () => {
    const ignored = read(".dockerignore").split("\n").map((line) => line.trim());
    for (const pattern of ["**/node_modules", "**/dist", "**/*.tsbuildinfo"]) assert.ok(ignored.includes(pattern), `.dockerignore lacks ${pattern}`);
    if (ignored.includes("test/*")) assert.ok(ignored.includes("!test/package.json"), "test/package.json must stay in the context");
  });
});

// ---------- docker-compose.yml
interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  healthcheck?: { test?: string[] };
  deploy?: { replicas?: number };
  container_name?: string;
}

describe("docker-compose.yml", () => {
  const compose = parse(read("docker-compose.yml")) as { services: Record<string, ComposeService> };
  const services = Object.entries(compose.services);

  it("gives every service a health check and an image or a build", () => {
    for (const [name, service] of services) {
      assert.ok((service.healthcheck?.test?.length ?? 0) > 1, `${name} has no healthcheck`);
      assert.ok(service.image !== undefined || service.build !== undefined, `${name} has neither image nor build`);
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        assert.ok(compose.services[dependency], `${name} depends on unknown ${dependency}`);
        assert.equal(condition, "service_healthy", `${name} → ${dependency}`);
      }
    }
  });

  it("publishes only the gateway's ports", () => {
    for (const [name, service] of services) {
      const expected = name === "gateway" ? [`${GRPC_PORT.gateway}:${GRPC_PORT.gateway}`, `${HTTP_PORT.gateway}:${HTTP_PORT.gateway}`] : [];
      assert.deepEqual(service.ports ?? [], expected, name);
    }
  });

  for (const name of SERVICES) {
    it(`${name}: built from its Dockerfile, on the documented ports, with documented variables`, () => {
      const service = compose.services[name];
      assert.ok(service, `no ${name} service`);
      assert.deepEqual(service.build, { context: ".", dockerfile: dockerfilePath(name) });
      assert.deepEqual(service.command, [name]);
      const env = service.environment ?? {};
      assert.equal(env["LOUPE_GRPC_PORT"], String(GRPC_PORT[name]));
      assert.equal(env["LOUPE_HTTP_PORT"], String(HTTP_PORT[name]));
      assert.equal(env["LOUPE_GRPC_HOST"], "0.0.0.0");
      assert.equal(env["LOUPE_HTTP_HOST"], "0.0.0.0");
      assert.ok(service.healthcheck?.test?.join(" ").includes(`127.0.0.1:${HTTP_PORT[name]}/healthz`), `${name} healthcheck does not GET /healthz`);
      assertVariablesFor(name, Object.keys(env), `docker-compose.yml ${name}`);
    });
  }

  it("wires the services to each other and to NATS, Redis and S3 by service name", () => {
    const env = (name: string): Record<string, string> => compose.services[name]?.environment ?? {};
    assert.equal(env("gateway")["LOUPE_ARCHIVE_ADDR"], `archive:${GRPC_PORT.archive}`);
    assert.ok(env("gateway")["LOUPE_RESULT_ID_SECRET"], "gateway needs LOUPE_RESULT_ID_SECRET");
    assert.equal(env("archive")["LOUPE_ARCHIVE_BACKEND"], "s3");
    for (const url of [env("gateway")["LOUPE_NATS_URL"], env("note-worker")["LOUPE_NATS_URL"], env("archive")["LOUPE_S3_ENDPOINT"], env("note-worker")["LOUPE_REDIS_URL"]]) {
      assert.ok(url !== undefined && compose.services[new URL(url).hostname], `${url} does not name a compose service`);
    }
    assert.ok((compose.services["nats"]?.healthcheck?.test?.length ?? 0) > 0 && JSON.stringify(compose.services["nats"]).includes('"-js"'), "nats runs without JetStream");
    assert.ok((compose.services["note-worker"]?.deploy?.replicas ?? 1) >= 2, "note-worker should run two replicas");
    assert.equal(compose.services["note-worker"]?.container_name, undefined, "a container_name prevents replicas");
  });
});

// ---------- deploy/k8s
interface KeyRef { name: string; key: string; optional?: boolean }
interface EnvVar { name: string; value?: string; valueFrom?: { configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef } }
interface Probe { httpGet?: { path: string; port: number | string }; grpc?: { port: number } }
interface Container {
  name: string; image: string; args?: string[]; env?: EnvVar[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: Probe; readinessProbe?: Probe; livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec { containers: Container[]; securityContext?: { runAsNonRoot?: boolean; runAsUser?: number }; volumes?: { name: string; emptyDir?: Mapping }[] }
/** A Deployment's or PodDisruptionBudget's `{ matchLabels }`, or a Service's plain map. */
type Selector = { matchLabels?: Record<string, string> } | Record<string, string>;
interface Manifest {
  kind: string; metadata: { name: string; namespace?: string };
  data?: Record<string, string>; stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: Selector;
    template?: { metadata: { labels: Record<string, string> }; spec: PodSpec };
    ports?: { name: string; port: number; targetPort: string | number }[];
  };
}

function yamlFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? yamlFiles(`${dir}/${entry.name}`) : /\.ya?ml$/.test(entry.name) ? [`${dir}/${entry.name}`] : [],
  );
}
function parseManifests(text: string, where: string): Manifest[] {
  return parseAllDocuments(text).map((document) => {
    assert.deepEqual(document.errors.map(String), [], `${where} does not parse`);
    return document.toJS() as Manifest;
  }).filter((manifest) => manifest !== null);
}
/** True when `selector` (a Service's map or a `{ matchLabels }`) is non-empty and matches `labels`. */
function selects(selector: Selector | undefined, labels: Record<string, string> = {}): boolean {
  const raw = selector ?? {};
  const pairs = Object.entries(("matchLabels" in raw ? raw.matchLabels : raw) as Record<string, string>);
  return pairs.length > 0 && pairs.every(([key, value]) => labels[key] === value);
}

describe("deploy/k8s", () => {
  const files = yamlFiles("deploy/k8s");
  const manifests = files.flatMap((file) => parseManifests(read(file), file));
  const kustomization = parse(read("deploy/k8s/kustomization.yaml")) as { namespace: string; resources: string[] };
  const find = (kind: string, name: string): Manifest | undefined => manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
  const configKeys = Object.keys(find("ConfigMap", "loupe-config")?.data ?? {});
  const secretKeys = Object.keys(find("Secret", "loupe-secrets")?.stringData ?? {});
  const deployDoc = read("docs/deploy.md");

  it("lists every manifest in kustomization.yaml, in namespace loupe", () => {
    assert.equal(kustomization.namespace, "loupe");
    const listed = kustomization.resources.map((resource) => `deploy/k8s/${resource}`);
    for (const file of listed) assert.ok(existsSync(join(root, file)), `${file} does not exist`);
    const expected = files.filter((file) => !file.endsWith("/kustomization.yaml") && !file.endsWith(".example.yaml"));
    assert.deepEqual([...listed].sort(), expected.sort());
  });

  it("documents every ConfigMap and Secret key", () => {
    assert.ok(configKeys.length > 0 && secretKeys.length > 0, "loupe-config or the example loupe-secrets is missing");
    for (const key of [...configKeys, ...secretKeys]) {
      assert.ok(!key.startsWith("LOUPE_") || documented.has(key), `${key} is not in docs/configuration.md`);
      assert.ok(deployDoc.includes(`\`${key}\``), `${key} is not in docs/deploy.md`);
    }
  });

  for (const service of SERVICES) {
    it(`${service}: Deployment with documented ports, probes, variables and a locked-down container`, () => {
      const deployment = find("Deployment", service);
      assert.ok(deployment?.spec?.template, `no Deployment ${service}`);
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers;
      assert.ok(container && pod.containers.length === 1);
      assert.ok((deployment.spec.replicas ?? 1) >= 2, "run at least two replicas");
      assert.ok(selects(deployment.spec.selector, deployment.spec.template.metadata.labels));
      assert.match(container.image, new RegExp(`^loupe-${service}(:|$)`));
      assert.deepEqual(container.args, [service]);

      const ports = new Map((container.ports ?? []).map((port) => [port.name, port.containerPort]));
      assert.deepEqual(Object.fromEntries(ports), { grpc: GRPC_PORT[service], http: HTTP_PORT[service] });
      const env = new Map((container.env ?? []).map((variable) => [variable.name, variable]));
      assert.equal(env.get("LOUPE_GRPC_PORT")?.value, String(GRPC_PORT[service]));
      assert.equal(env.get("LOUPE_HTTP_PORT")?.value, String(HTTP_PORT[service]));
      assert.equal(env.get("LOUPE_GRPC_HOST")?.value, "0.0.0.0");
      assert.equal(env.get("LOUPE_HTTP_HOST")?.value, "0.0.0.0");
      assertVariablesFor(service, [...env.keys()], `deploy/k8s ${service}`);
      for (const variable of env.values()) {
        const { configMapKeyRef, secretKeyRef } = variable.valueFrom ?? {};
        if (configMapKeyRef) assert.ok(configMapKeyRef.name === "loupe-config" && configKeys.includes(configMapKeyRef.key), `${variable.name} → ${JSON.stringify(configMapKeyRef)}`);
        if (secretKeyRef) assert.ok(secretKeyRef.name === "loupe-secrets" && secretKeys.includes(secretKeyRef.key), `${variable.name} → ${JSON.stringify(secretKeyRef)}`);
      }

      assert.ok(container.readinessProbe?.httpGet, "readiness uses GET /healthz");
      assert.ok(container.livenessProbe?.grpc, "liveness uses grpc.health.v1");
      const portOf = (port: number | string): number | undefined => (typeof port === "string" ? ports.get(port) : port);
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe ?? {}]) {
        if (probe.httpGet) assert.deepEqual([probe.httpGet.path, portOf(probe.httpGet.port)], ["/healthz", HTTP_PORT[service]]);
        if (probe.grpc) assert.equal(probe.grpc.port, GRPC_PORT[service]);
      }

      for (const kind of ["requests", "limits"] as const) for (const resource of ["cpu", "memory"]) assert.ok(container.resources?.[kind]?.[resource], `${kind}.${resource} missing`);
      assert.equal(pod.securityContext?.runAsNonRoot, true);
      assert.ok((pod.securityContext?.runAsUser ?? 0) > 0, "runAsUser must be numeric and non-zero (the image's user is named)");
      assert.equal(container.securityContext?.readOnlyRootFilesystem, true);
      assert.equal(container.securityContext?.allowPrivilegeEscalation, false);
      assert.deepEqual(container.securityContext?.capabilities?.drop, ["ALL"]);
      const tmp = container.volumeMounts?.find((mount) => mount.mountPath === "/tmp");
      assert.ok(tmp && pod.volumes?.find((volume) => volume.name === tmp.name)?.emptyDir, "/tmp must be an emptyDir");
    });

    it(`${service}: Service selects its pods and targets its named ports`, () => {
      const serviceManifest = find("Service", service);
      const pods = find("Deployment", service)?.spec?.template;
      assert.ok(serviceManifest?.spec?.ports && pods, `no Service ${service}`);
      assert.ok(selects(serviceManifest.spec.selector, pods.metadata.labels));
      const named = new Map((pods.spec.containers[0]?.ports ?? []).map((port) => [port.name, port.containerPort]));
      for (const port of serviceManifest.spec.ports) assert.equal(named.get(String(port.targetPort)), port.port, `${service} port ${port.name}`);
    });
  }

  it("points the gateway at the archive Service and keeps it available through disruptions", () => {
    const env = find("Deployment", "gateway")?.spec?.template?.spec.containers[0]?.env ?? [];
    const grpc = find("Service", "archive")?.spec?.ports?.find((port) => port.name === "grpc");
    assert.equal(env.find((variable) => variable.name === "LOUPE_ARCHIVE_ADDR")?.value, `archive:${grpc?.port}`);
    assert.ok(env.find((variable) => variable.name === "LOUPE_RESULT_ID_SECRET")?.valueFrom?.secretKeyRef, "LOUPE_RESULT_ID_SECRET comes from a Secret");
    const labels = find("Deployment", "gateway")?.spec?.template?.metadata.labels;
    const budget = manifests.find((manifest) => manifest.kind === "PodDisruptionBudget" && selects(manifest.spec?.selector, labels));
    assert.ok(budget, "no PodDisruptionBudget selects the gateway pods");
  });
});

describe("every deployment file", () => {
  it("names only LOUPE_* variables that docs/configuration.md documents", () => {
    const deployFiles = (dir: string): string[] =>
      readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? deployFiles(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`]));
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
  it("docker-compose config -q accepts docker-compose.yml", { skip: composeCommand ? false : "docker-compose is not installed (apt-get install -y --no-install-recommends docker-compose)" }, () => {
    const [command, ...args] = composeCommand!;
    const result = spawnSync(command!, [...args, "-f", "docker-compose.yml", "config", "-q"], { cwd: root, encoding: "utf8", timeout: 60_000 });
    assert.equal(result.status, 0, result.stderr || String(result.error));
  });

  it("kubectl kustomize renders deploy/k8s into namespace loupe", { skip: kubectl ? false : "kubectl is not installed" }, () => {
    const result = spawnSync("kubectl", ["kustomize", "deploy/k8s"], { cwd: root, encoding: "utf8", timeout: 60_000 });
    assert.equal(result.status, 0, result.stderr || String(result.error));
    const rendered = parseManifests(result.stdout, "kubectl kustomize output");
    const kinds = rendered.map((manifest) => `${manifest.kind}/${manifest.metadata.name}`).sort();
    for (const service of SERVICES) for (const kind of ["Deployment", "Service"]) assert.ok(kinds.includes(`${kind}/${service}`), `${kind}/${service} not rendered`);
    for (const manifest of rendered.filter((candidate) => candidate.kind !== "Namespace")) assert.equal(manifest.metadata.namespace, "loupe", `${manifest.kind}/${manifest.metadata.name}`);
  });
});
