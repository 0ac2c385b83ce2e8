#!/usr/bin/env node
import { isAppError } from "@loupe/errors";

// Each command loads only what it uses, so short commands (the hook above all) start fast.

const USAGE = `usage: loupe <command>

commands:
  serve         run gateway, archive and note-worker in one process (embedded; default)
  gateway       run the gateway (distributed mode)
  archive       run the archive service (distributed mode)
  note-worker   run the note-worker (distributed mode)
  project       project stdin through a running Loupe: [--tool NAME] [--command CMD] [--intent TEXT | --intent-file F]
                [--model NAME] [--source APP] [--session ID] [--budget N] [--file F] [--json]
  recover       recover '<continuation_json>' from a running Loupe: [--budget N] [--all]
  hook          agent hooks: 'hook post-tool-use' projects a post-tool payload on stdin, 'hook pre-tool-use'
                runs shell commands through 'loupe exec' (docs/runtimes.md)
  setup         wire a runtime to Loupe (hooks or plugin, MCP server), idempotently: claude-code|codex|gemini-cli|opencode
                [--project] [--dry-run] [--loupe COMMAND] [--remove] (docs/runtimes.md)
  plugin        'plugin opencode' prints Loupe's OpenCode plugin (for ~/.config/opencode/plugin/loupe.js)
  exec          run a command and print Loupe's first view of its output, exiting with its status:
                [--session ID] [--source APP] [--tool NAME] [--intent TEXT] [--model NAME] -- COMMAND…
  token         tokens of a Loupe with LOUPE_AUTH=tokens (LOUPE_TOKEN = the operator's): 'token create --tenant NAME
                [--admin] [--source S] [--expires-in DAYS]', 'token list [--tenant NAME] [--json]', 'token revoke ID'
  views         the field views a running Loupe applies, one line each: [--source APP] [--tool NAME] [--json]
  mcp           MCP server on stdio for agents (read_result, search_result, read_history, …): [--addr HOST:PORT]
  eval          replay recorded trajectories under context policies — corpus files, or saved sessions as they are
                (~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp, *.traj.json): --corpus F|DIR… [--policy a,b] [--rule SPEC]…
                [--split dev|test] [--limit-trajectories N] [--addr HOST:PORT] [--json] [--html FILE] [--misses FILE] [--views FILE];
                --notes W[,W…] replays them as turns instead and scores the handover notes (docs/evaluation.md)
  eval-compare  two runs' 'eval --views' files compared output by output (views changed, items gained and lost):
                BEFORE AFTER [--policy a,b] [--show N] [--json]
  help          show this text

Configuration comes from LOUPE_* environment variables (docs/configuration.md);
project, recover, views, exec, hook and mcp talk to LOUPE_ADDR (default 127.0.0.1:50051) or --addr,
with LOUPE_TOKEN when set;
mcp allows set_app_limit only with LOUPE_MCP_ADMIN=1.`;

async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const command = argv[0] ?? "serve";
  switch (command) {
    case "serve":
      await (await import("./serve-command.js")).serveCommand(env);
      return 0;
    case "gateway":
      await (
        await import("@loupe/gateway/run")
      ).runGatewayProcess(env, { startDirectPuts: async (from) => (await import("./direct-puts.js")).startDirectPuts(from) });
      return 0;
    case "archive":
      await (await import("@loupe/archive/run")).runArchiveProcess(env);
      return 0;
    case "note-worker":
      await (await import("@loupe/note-worker/run")).runNoteWorkerProcess(env);
      return 0;
    case "project":
      return (await import("./client-commands.js")).projectCommand(argv.slice(1), env);
    case "recover":
      return (await import("./client-commands.js")).recoverCommand(argv.slice(1), env);
    case "hook":
      return (await import("./hook/hook-command.js")).hookCommand(argv.slice(1), env);
    case "setup":
      return (await import("./setup/setup-command.js")).setupCommand(argv.slice(1), env);
    case "plugin":
      return (await import("./runtimes/plugin-command.js")).pluginCommand(argv.slice(1));
    case "exec":
      return (await import("./exec/exec-command.js")).execCommand(argv.slice(1), env);
    case "mcp":
      return (await import("./mcp-command.js")).mcpCommand(argv.slice(1), env);
    case "token":
      return (await import("./token-command.js")).tokenCommand(argv.slice(1), env);
    case "views":
      return (await import("./views-command.js")).viewsCommand(argv.slice(1), env);
    case "eval":
      return (await import("./eval-command.js")).evalCommand(argv.slice(1), env);
    case "eval-compare":
      return (await import("./eval-compare-command.js")).evalCompareCommand(argv.slice(1));
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

/** How long a failed command's output has to drain before the process ends, whatever it still holds open. */
const FAILED_EXIT_MS = 200;

main(process.argv.slice(2), process.env).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`loupe: ${isAppError(error) ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
    // A command that failed is over, even when what it opened before failing (a server that did start, a client's
    // reconnecting connection) would keep the process alive: a service whose port is taken exits instead of hanging.
    setTimeout(() => process.exit(), FAILED_EXIT_MS).unref();
  },
);
