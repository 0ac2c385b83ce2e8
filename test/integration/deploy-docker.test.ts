// Offline checks of deploy/docker: entrypoints, users, ports and health checks agree with the `loupe` command and docs/configuration.md.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  GRPC_PORT,
  HTTP_PORT,
  SERVICES,
  assertVariablesFor,
  dockerInstructions,
  dockerfilePath,
  execForm,
  loupeCommands,
  loupeNames,
  read,
  workspaceDirs,
} from "../support/deploy-files.js";
import type { Instruction, Service } from "../support/deploy-files.js";

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
      const env = final("ENV")
        .map((instruction) => instruction.args)
        .join(" ");
      for (const setting of ["NODE_ENV=production", "LOUPE_GRPC_HOST=0.0.0.0", "LOUPE_HTTP_HOST=0.0.0.0"])
        assert.ok(env.includes(setting), `ENV lacks ${setting}`);
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
    const ignored = read(".dockerignore")
      .split("\n")
      .map((line) => line.trim());
    for (const pattern of ["**/node_modules", "**/dist", "**/*.tsbuildinfo"]) assert.ok(ignored.includes(pattern), `.dockerignore lacks ${pattern}`);
    if (ignored.includes("test/*")) assert.ok(ignored.includes("!test/package.json"), "test/package.json must stay in the context");
  });
});
