import { currentInvocation } from "../hook/pre-tool-use.js";
import { opencodePluginSource } from "./opencode-plugin.js";

/**
 * `loupe plugin opencode`: prints Loupe's OpenCode plugin, set to run this very `loupe`
 * (save it as `~/.config/opencode/plugin/loupe.js`). Returns 2 for another runtime.
 */
export function pluginCommand(args: readonly string[]): number {
  const [runtime] = args;
  if (runtime !== "opencode") {
    process.stderr.write(
      `loupe plugin: only OpenCode takes a plugin [runtime=${JSON.stringify(runtime ?? "")}]; usage: loupe plugin opencode > ~/.config/opencode/plugin/loupe.js\n`,
    );
    return 2;
  }
  process.stdout.write(opencodePluginSource(currentInvocation()));
  return 0;
}
