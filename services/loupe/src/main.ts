#!/usr/bin/env node
import { runArchiveProcess } from "@loupe/archive/run";
import { isAppError } from "@loupe/errors";
import { runGatewayProcess } from "@loupe/gateway/run";
import { runNoteWorkerProcess } from "@loupe/note-worker/run";
import { createLogger, onShutdownSignal } from "@loupe/runtime";
import { startTelemetry } from "@loupe/telemetry";
import { projectCommand, recoverCommand } from "./client-commands.js";
import { loadServeConfig } from "./serve-config.js";
import { startEmbedded } from "./serve.js";

const USAGE = `usage: loupe <command>

commands:
  serve         run gateway, archive and note-worker in one process (embedded; default)
  gateway       run the gateway (distributed mode)
  archive       run the archive service (distributed mode)
  note-worker   run the note-worker (distributed mode)
  project       project stdin through a running Loupe: [--tool NAME] [--budget N] [--file F] [--json]
  recover       recover '<continuation_json>' from a running Loupe: [--budget N] [--all]
  hook          agent hooks: 'hook post-tool-use' projects a PostToolUse payload on stdin (docs/hook.md)
  help          show this text

Configuration comes from LOUPE_* environment variables (docs/configuration.md);
project and recover talk to LOUPE_ADDR (default 127.0.0.1:50051) or --addr.`;

async function serve(env: NodeJS.ProcessEnv): Promise<void> {
  const config = loadServeConfig(env);
  const logger = createLogger({ service: "loupe", level: config.gateway.logLevel });
  const telemetry = startTelemetry({ serviceName: "loupe", exporter: env["OTEL_EXPORTER_OTLP_ENDPOINT"] ? "otlp" : "none" });
  const loupe = await startEmbedded(config, logger);
  onShutdownSignal(async (signal) => {
    logger.info("shutting down", { signal });
    await loupe.stop();
    await telemetry.shutdown();
  });
}

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const command = argv[0] ?? "serve";
  switch (command) {
    case "serve":
      await serve(env);
      return 0;
    case "gateway":
      await runGatewayProcess(env);
      return 0;
    case "archive":
      await runArchiveProcess(env);
      return 0;
    case "note-worker":
      await runNoteWorkerProcess(env);
      return 0;
    case "project":
      return projectCommand(argv.slice(1), env);
    case "recover":
      return recoverCommand(argv.slice(1), env);
    case "hook":
      return (await import("./hook/hook-command.js")).hookCommand(argv.slice(1), env);
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE + "\n");
      return 0;
    default:
      process.stderr.write(`loupe: unknown command ${JSON.stringify(command)}\n\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2), process.env).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`loupe: ${isAppError(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
