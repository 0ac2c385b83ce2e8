/** A runtime's settings file, as parsed JSON. */
export type Settings = Record<string, unknown>;

/** One hook of a runtime's hook group (Claude Code, Codex, Gemini CLI share this shape). */
export interface CommandHook {
  type: "command";
  command: string;
  timeout?: number;
}

/** A group of hooks under one matcher: `{ "matcher": "Bash|Grep", "hooks": [ … ] }`. */
export interface HookGroup {
  matcher: string;
  hooks: CommandHook[];
}

/** What a merge did to a settings file's entry. */
export type Change = "added" | "updated" | "unchanged";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether a hook runs Loupe's hook for `event` (`… loupe … hook pre-tool-use`, however Loupe is invoked). */
export function isLoupeHook(hook: unknown, event: "pre-tool-use" | "post-tool-use"): boolean {
  if (!isObject(hook) || typeof hook["command"] !== "string") return false;
  const command = hook["command"];
  return /loupe/i.test(command) && new RegExp(`\\bhook'?\\s+'?${event}\\b`).test(command);
}

/**
 * `settings` with Loupe's hook group for `runtimeEvent` (`PreToolUse`, `BeforeTool`, …): every hook
 * of Loupe's for `loupeEvent` already there is taken out of its group (a group left empty is
 * dropped), and `group` takes the place of the first group that held one — else it comes last. The
 * runtime's other hooks and settings are kept as they are, in their order; a second merge of the
 * same group changes nothing. Pure: `settings` is not modified.
 */
export function mergeHookGroup(
  settings: Settings,
  runtimeEvent: string,
  loupeEvent: "pre-tool-use" | "post-tool-use",
  group: HookGroup,
): { settings: Settings; change: Change } {
  const hooks = isObject(settings["hooks"]) ? settings["hooks"] : {};
  const groups: unknown[] = Array.isArray(hooks[runtimeEvent]) ? (hooks[runtimeEvent] as unknown[]) : [];
  const merged: unknown[] = [];
  let had = false;
  let placed = false;
  for (const existing of groups) {
    const inner = isObject(existing) && Array.isArray(existing["hooks"]) ? (existing["hooks"] as unknown[]) : [];
    const others = inner.filter((hook) => !isLoupeHook(hook, loupeEvent));
    if (others.length === inner.length) {
      merged.push(existing);
      continue;
    }
    had = true;
    if (others.length > 0) merged.push({ ...(existing as Record<string, unknown>), hooks: others });
    else if (!placed) {
      merged.push(group);
      placed = true;
    }
  }
  if (!placed) merged.push(group);
  const change: Change = !had ? "added" : JSON.stringify(groups) === JSON.stringify(merged) ? "unchanged" : "updated";
  return { settings: { ...settings, hooks: { ...hooks, [runtimeEvent]: merged } }, change };
}

/** `settings` with `value` at `path` (objects made on the way), and whether that added, changed or kept it. Pure. */
export function setEntry(settings: Settings, path: readonly [string, ...string[]], value: unknown): { settings: Settings; change: Change } {
  const [key, ...rest] = path;
  const current = settings[key];
  if (rest.length === 0) return { settings: { ...settings, [key]: value }, change: changeOf(current, value) };
  const inner = setEntry(isObject(current) ? current : {}, rest as [string, ...string[]], value);
  return { settings: { ...settings, [key]: inner.settings }, change: inner.change };
}

function changeOf(before: unknown, after: unknown): Change {
  if (before === undefined) return "added";
  return JSON.stringify(before) === JSON.stringify(after) ? "unchanged" : "updated";
}
