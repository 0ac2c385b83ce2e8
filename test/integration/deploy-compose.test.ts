// Offline checks of docker-compose.yml against docs/configuration.md and the images.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "yaml";
import { GRPC_PORT, HTTP_PORT, SERVICES, assertVariablesFor, dockerfilePath, read } from "../support/deploy-files.js";
import type { ComposeService } from "../support/deploy-files.js";

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
    for (const url of [env("gateway")["LOUPE_NATS_URL"], env("note-worker")["LOUPE_NATS_URL"], env("archive")["LOUPE_S3_ENDPOINT"], env("gateway")["LOUPE_REDIS_URL"]]) {
      assert.ok(url !== undefined && compose.services[new URL(url).hostname], `${url} does not name a compose service`);
    }
    assert.ok((compose.services["nats"]?.healthcheck?.test?.length ?? 0) > 0 && JSON.stringify(compose.services["nats"]).includes('"-js"'), "nats runs without JetStream");
    assert.ok((compose.services["note-worker"]?.deploy?.replicas ?? 1) >= 2, "note-worker should run two replicas");
    assert.equal(compose.services["note-worker"]?.container_name, undefined, "a container_name prevents replicas");
  });
});
