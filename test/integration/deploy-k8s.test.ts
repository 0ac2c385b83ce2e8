// Offline checks of deploy/k8s: manifests, probes, variables, ConfigMap and Secret keys.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { GRPC_PORT, HTTP_PORT, SERVICES, assertVariablesFor, documented, parseManifests, read, root, selects, yamlFiles } from "../support/deploy-files.js";
import type { Manifest } from "../support/deploy-files.js";

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
        if (configMapKeyRef)
          assert.ok(
            configMapKeyRef.name === "loupe-config" && configKeys.includes(configMapKeyRef.key),
            `${variable.name} → ${JSON.stringify(configMapKeyRef)}`,
          );
        if (secretKeyRef)
          assert.ok(secretKeyRef.name === "loupe-secrets" && secretKeys.includes(secretKeyRef.key), `${variable.name} → ${JSON.stringify(secretKeyRef)}`);
      }

      assert.ok(container.readinessProbe?.httpGet, "readiness uses GET /healthz");
      assert.ok(container.livenessProbe?.grpc, "liveness uses grpc.health.v1");
      const portOf = (port: number | string): number | undefined => (typeof port === "string" ? ports.get(port) : port);
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe ?? {}]) {
        if (probe.httpGet) assert.deepEqual([probe.httpGet.path, portOf(probe.httpGet.port)], ["/healthz", HTTP_PORT[service]]);
        if (probe.grpc) assert.equal(probe.grpc.port, GRPC_PORT[service]);
      }

      for (const kind of ["requests", "limits"] as const)
        for (const resource of ["cpu", "memory"]) assert.ok(container.resources?.[kind]?.[resource], `${kind}.${resource} missing`);
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

  for (const service of SERVICES) {
    it(`${service}: scraped at /metrics on its HTTP port, autoscaled from two replicas, kept up through disruptions, fenced by a NetworkPolicy`, () => {
      const deployment = find("Deployment", service) as (Manifest & { spec: { template: { metadata: { annotations?: Record<string, string> } } } }) | undefined;
      const annotations = deployment?.spec.template.metadata.annotations ?? {};
      assert.deepEqual(
        [annotations["prometheus.io/scrape"], annotations["prometheus.io/port"], annotations["prometheus.io/path"]],
        ["true", String(HTTP_PORT[service]), "/metrics"],
      );
      const env = deployment?.spec.template.spec.containers[0]?.env ?? [];
      const otlp = env.find((variable) => variable.name === "OTEL_EXPORTER_OTLP_ENDPOINT")?.valueFrom?.configMapKeyRef;
      assert.ok(otlp?.name === "loupe-config" && configKeys.includes(otlp.key), "the collector endpoint comes from loupe-config");
      const hpa = find("HorizontalPodAutoscaler", service) as
        (Manifest & { spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number; maxReplicas: number } }) | undefined;
      assert.ok(hpa, `no HorizontalPodAutoscaler ${service}`);
      assert.deepEqual([hpa.spec.scaleTargetRef.kind, hpa.spec.scaleTargetRef.name], ["Deployment", service]);
      assert.ok(hpa.spec.minReplicas >= 2 && hpa.spec.maxReplicas > hpa.spec.minReplicas);
      const labels = deployment?.spec.template.metadata.labels;
      assert.ok(
        manifests.some((manifest) => manifest.kind === "PodDisruptionBudget" && selects(manifest.spec?.selector, labels)),
        `no PodDisruptionBudget selects ${service}`,
      );
      const policy = find("NetworkPolicy", service) as (Manifest & { spec: { podSelector: { matchLabels: Record<string, string> } } }) | undefined;
      assert.ok(policy && selects(policy.spec.podSelector, labels), `no NetworkPolicy selects ${service}`);
    });
  }

  it("lets only the gateway and the note-worker reach the archive's gRPC port", () => {
    interface Rule {
      from?: { podSelector?: { matchLabels?: Record<string, string> } }[];
      ports?: { port: string | number }[];
    }
    const policy = find("NetworkPolicy", "archive") as (Manifest & { spec: { policyTypes: string[]; ingress: Rule[] } }) | undefined;
    assert.ok(policy?.spec.policyTypes.includes("Ingress") === true);
    const grpcRules = policy.spec.ingress.filter((rule) => (rule.ports ?? []).some((port) => port.port === "grpc" || port.port === GRPC_PORT.archive));
    assert.equal(grpcRules.length, 1, "one rule for the gRPC port");
    const callers = (grpcRules[0]?.from ?? []).map((peer) => peer.podSelector?.matchLabels?.["app.kubernetes.io/name"]).sort();
    assert.deepEqual(callers, ["gateway", "note-worker"]);
  });
});
