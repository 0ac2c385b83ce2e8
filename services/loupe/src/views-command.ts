import { toJsonString } from "@bufbuild/protobuf";
import { createLoupeClient, loupeClientOptionsFromEnv } from "@loupe/client";
import { describeView } from "@loupe/client/mcp";
import { ListViewsResponseSchema } from "@loupe/proto";
import { loupeAddress } from "./loupe-connection.js";
import { parseFlags } from "./parse-flags.js";

/**
 * `loupe views [--source APP] [--tool NAME] [--json] [--addr HOST:PORT]`: the field views a
 * running Loupe applies (its configuration's, then the app's rule's), one line each — tool,
 * name, when to use it, fields kept and dropped — or RulesService.ListViews' answer as JSON.
 */
export async function viewsCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const flags = parseFlags(args, ["source", "tool", "addr"], ["json"]);
  const client = createLoupeClient({ ...loupeClientOptionsFromEnv(env), address: loupeAddress(env, flags.values.addr) });
  try {
    const response = await client.listViews({ source: flags.values.source ?? "", toolName: flags.values.tool ?? "" });
    if (flags.switches.has("json")) {
      process.stdout.write(toJsonString(ListViewsResponseSchema, response, { prettySpaces: 2, alwaysEmitImplicit: true }) + "\n");
      return 0;
    }
    if (response.views.length === 0) {
      process.stderr.write("loupe views: no field views apply (LOUPE_VIEW_SPECS_FILE, or an app rule's view_specs_json; docs/configuration.md)\n");
      return 0;
    }
    for (const view of response.views) process.stdout.write(`${describeView(view)}${view.origin === "rule" ? " [rule]" : ""}\n`);
    return 0;
  } finally {
    client.close();
  }
}
