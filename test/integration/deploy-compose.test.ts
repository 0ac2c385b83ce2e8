// Offline checks of docker-compose.yml against docs/configuration.md and the images.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { GRPC_PORT, HTTP_PORT, SERVICES, assertVariablesFor, dockerfilePath, read } from "../support/deploy-files.js";
import type { ComposeService } from "../support/deploy-files.js";

describe("docker-compose.yml", () => {
  const compose = parse(read("docker-compose.yml")) as { services: Record<string, ComposeService> };
  const services = Object.entries(compose.services);

  // The collector's image has no shell to probe with; nothing may wait on it (services export in the background).
  const UNPROBED = new Set(["otel-collector"]);

  it("gives every service a health check (the collector aside, which nothing waits on) and an image or a build", () => {
    for (const [name, service] of services) {
      if (UNPROBED.has(name)) {
        for (const [other, { depends_on: dependsOn }] of services)
          assert.equal(dependsOn?.[name], undefined, `${other} waits on ${name}, which has no health check`);
      } else assert.ok((service.healthcheck?.test?.length ?? 0) > 1, `${name} has no healthcheck`);
      assert.ok(service.image !== undefined || service.build !== undefined, `${name} has neither image nor build`);
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        assert.ok(compose.services[dependency], `${name} depends on unknown ${dependency}`);
        assert.equal(condition, "service_healthy", `${name} → ${dependency}`);
      }
    }
  });

  it("publishes only the gateway's ports and Jaeger's UI", () => {
    for (const [name, service] of services) {
      const published: Record<string, string[]> = {
        gateway: [`${GRPC_PORT.gateway}:${GRPC_PORT.gateway}`, `${HTTP_PORT.gateway}:${HTTP_PORT.gateway}`],
        jaeger: ["16686:16686"],
      };
      const expected = published[name] ?? [];
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
    for (const url of [
      env("gateway")["LOUPE_NATS_URL"],
      env("note-worker")["LOUPE_NATS_URL"],
      env("archive")["LOUPE_S3_ENDPOINT"],
      env("gateway")["LOUPE_REDIS_URL"],
    ]) {
      assert.ok(url !== undefined && compose.services[new URL(url).hostname], `${url} does not name a compose service`);
    }
    assert.ok(
      (compose.services["nats"]?.healthcheck?.test?.length ?? 0) > 0 && JSON.stringify(compose.services["nats"]).includes('"-js"'),
      "nats runs without JetStream",
    );
    assert.ok((compose.services["note-worker"]?.deploy?.replicas ?? 1) >= 2, "note-worker should run two replicas");
    assert.equal(compose.services["note-worker"]?.container_name, undefined, "a container_name prevents replicas");
  });

  it("sends every Loupe service's traces and metrics to the collector, whose pipeline is complete", () => {
    interface Pipeline {
      receivers?: string[];
      processors?: string[];
      exporters?: string[];
    }
    interface CollectorConfig {
      receivers: Record<string, { protocols?: Record<string, { endpoint?: string }> }>;
      processors?: Record<string, unknown>;
      exporters: Record<string, { endpoint?: string }>;
      extensions?: Record<string, unknown>;
      service: { extensions?: string[]; pipelines: Record<string, Pipeline> };
    }
    const collector = compose.services["otel-collector"] as (ComposeService & { volumes?: string[] }) | undefined;
    assert.ok(collector, "no otel-collector service");
    const mount = collector.volumes?.find((volume) => volume.startsWith("./deploy/otel/"));
    assert.ok(mount, "the collector's config is not mounted from deploy/otel");
    const config = parse(read(mount.slice(2).split(":")[0] ?? "")) as CollectorConfig;
    const defined = { receivers: config.receivers, processors: config.processors ?? {}, exporters: config.exporters };
    const used = new Set<string>();
    const pipelines = Object.entries(config.service.pipelines);
    assert.ok(pipelines.some(([type]) => type === "traces") && pipelines.some(([type]) => type === "metrics"), "traces and metrics pipelines");
    for (const [type, pipeline] of pipelines) {
      assert.match(type, /^(traces|metrics|logs)(\/[\w-]+)?$/);
      assert.ok((pipeline.receivers?.length ?? 0) > 0 && (pipeline.exporters?.length ?? 0) > 0, `${type} needs receivers and exporters`);
      for (const kind of ["receivers", "processors", "exporters"] as const)
        for (const component of pipeline[kind] ?? []) {
          assert.ok(Object.hasOwn(defined[kind], component), `${type} uses ${kind} ${component}, which is not defined`);
          used.add(`${kind}/${component}`);
        }
      if ((pipeline.processors ?? []).includes("memory_limiter")) assert.equal(pipeline.processors?.[0], "memory_limiter", `${type}: memory_limiter first`);
    }
    for (const kind of ["receivers", "processors", "exporters"] as const)
      for (const component of Object.keys(defined[kind])) assert.ok(used.has(`${kind}/${component}`), `${kind} ${component} is defined but in no pipeline`);
    for (const extension of config.service.extensions ?? []) assert.ok(Object.hasOwn(config.extensions ?? {}, extension), `extension ${extension} not defined`);
    // Where the traces go: a compose service that takes OTLP.
    const jaeger = new URL(`http://${config.exporters["otlp/jaeger"]?.endpoint ?? ""}`);
    assert.ok(compose.services[jaeger.hostname], `the trace exporter names ${jaeger.hostname}, not a compose service`);
    assert.equal(compose.services[jaeger.hostname]?.environment?.["COLLECTOR_OTLP_ENABLED"], "true");
    // Where the services send: the collector, on a port its OTLP receiver listens on.
    const ports = Object.values(config.receivers["otlp"]?.protocols ?? {}).map((protocol) => protocol.endpoint?.split(":").pop());
    for (const name of SERVICES) {
      const endpoint = new URL(compose.services[name]?.environment?.["OTEL_EXPORTER_OTLP_ENDPOINT"] ?? "http://missing");
      assert.equal(endpoint.hostname, "otel-collector", `${name} does not export to the collector`);
      assert.ok(ports.includes(endpoint.port), `${name} exports to port ${endpoint.port}, where the collector does not listen`);
    }
  });
});
