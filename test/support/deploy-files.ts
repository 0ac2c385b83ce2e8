// Reading the deployment files for the deploy tests: the oracle for variable names and default
// ports is docs/configuration.md.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@loupe/testing";
import { parse, parseAllDocuments } from "yaml";

export const root = repoRoot();
export const SERVICES = ["gateway", "archive", "note-worker"] as const;
export type Service = (typeof SERVICES)[number];
export type Mapping = Record<string, unknown>;

export const read = (path: string): string => readFileSync(join(root, path), "utf8");
export const loupeNames = (text: string): string[] => [...new Set(text.match(/\bLOUPE_[A-Z0-9_]+\b/g) ?? [])];

// ---------- docs/configuration.md: documented names, which service reads each, default ports
export const configDoc = read("docs/configuration.md");
export const documented = new Set(loupeNames(configDoc));
export const owners = new Map<string, Set<Service | "all">>();
for (const section of configDoc.split(/^## /m).slice(1)) {
  const heading = section.slice(0, section.indexOf("\n")).toLowerCase();
  const owner = heading.startsWith("every service") ? "all" : SERVICES.find((service) => heading.startsWith(service));
  if (owner === undefined) continue;
  for (const [, name] of section.matchAll(/^\| `(LOUPE_[A-Z0-9_]+)`/gm)) owners.set(name!, (owners.get(name!) ?? new Set()).add(owner));
}
export function defaultPorts(variable: string): Record<Service, number> {
  const row = configDoc.split("\n").find((line) => line.startsWith(`| \`${variable}\``)) ?? "";
  const ports: Partial<Record<string, number>> = Object.fromEntries(
    [...row.matchAll(/(gateway|archive|note-worker) `(\d+)`/g)].map(([, service, port]) => [service!, Number(port)] as const),
  );
  for (const service of SERVICES) assert.ok(ports[service], `docs/configuration.md gives no default ${variable} for ${service}`);
  return ports as Record<Service, number>;
}
export const GRPC_PORT = defaultPorts("LOUPE_GRPC_PORT");
export const HTTP_PORT = defaultPorts("LOUPE_HTTP_PORT");

/** Fails unless every LOUPE_* name is documented and, when the doc ties it to services, read by `service`. */
export function assertVariablesFor(service: Service, names: readonly string[], where: string): void {
  for (const name of names.filter((candidate) => candidate.startsWith("LOUPE_"))) {
    assert.ok(documented.has(name), `${where}: ${name} is not in docs/configuration.md`);
    const owner = owners.get(name);
    assert.ok(owner === undefined || owner.has("all") || owner.has(service), `${where}: ${service} does not read ${name}`);
  }
}

// ---------- the `loupe` command's own list of commands (its help text)
export function loupeCommands(): Set<string> {
  const help = spawnSync(process.execPath, ["--conditions=source", "--import", "tsx", "services/loupe/src/main.ts", "help"], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(help.status, 0, `loupe help failed: ${help.stderr}`);
  const commands = help.stdout.slice(help.stdout.indexOf("commands:")).split("\n\n")[0]!;
  return new Set([...commands.matchAll(/^ {2}(\S+) {2,}/gm)].map(([, command]) => command!));
}

// ---------- Dockerfiles
export interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}
export function dockerInstructions(text: string): Instruction[] {
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
export const dockerfilePath = (service: Service): string => `deploy/docker/${service}.Dockerfile`;
export const execForm = (args: string): unknown => JSON.parse(args.replace(/^.*?(?=\[)/s, ""));
export function workspaceDirs(): string[] {
  const { packages } = parse(read("pnpm-workspace.yaml")) as { packages: string[] };
  return packages
    .flatMap((pattern) => {
      if (!pattern.endsWith("/*")) return [pattern];
      const parent = pattern.slice(0, -2);
      return readdirSync(join(root, parent)).map((name) => `${parent}/${name}`);
    })
    .filter((dir) => existsSync(join(root, dir, "package.json")));
}

// ---------- docker-compose.yml
export interface ComposeService {
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

// ---------- deploy/k8s
export interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef };
}
export interface Probe {
  httpGet?: { path: string; port: number | string };
  grpc?: { port: number };
}
export interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: EnvVar[];
  ports?: { name?: string; containerPort: number }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: { name: string; mountPath: string }[];
}
export interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  volumes?: { name: string; emptyDir?: Mapping }[];
}
/** A Deployment's or PodDisruptionBudget's `{ matchLabels }`, or a Service's plain map. */
export type Selector = { matchLabels?: Record<string, string> } | Record<string, string>;
export interface Manifest {
  kind: string;
  metadata: { name: string; namespace?: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: Selector;
    template?: { metadata: { labels: Record<string, string> }; spec: PodSpec };
    ports?: { name: string; port: number; targetPort: string | number }[];
  };
}

export function yamlFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? yamlFiles(`${dir}/${entry.name}`) : /\.ya?ml$/.test(entry.name) ? [`${dir}/${entry.name}`] : [],
  );
}
export function parseManifests(text: string, where: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => {
      assert.deepEqual(document.errors.map(String), [], `${where} does not parse`);
      return document.toJS() as Manifest;
    })
    .filter((manifest) => manifest !== null);
}
/** True when `selector` (a Service's map or a `{ matchLabels }`) is non-empty and matches `labels`. */
export function selects(selector: Selector | undefined, labels: Record<string, string> = {}): boolean {
  const raw = selector ?? {};
  const pairs = Object.entries(("matchLabels" in raw ? raw.matchLabels : raw) as Record<string, string>);
  return pairs.length > 0 && pairs.every(([key, value]) => labels[key] === value);
}
