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

/** What a merge did to a settings file's entry (removing: "removed", or "absent" when there was none). */
export type Change = "added" | "updated" | "unchanged" | "removed" | "absent";

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
 * dropped), and `group` takes the place of the first group that held one — else it comes last;
 * `group` undefined removes Loupe's hooks only (an event, or `hooks`, left empty is dropped). The
 * runtime's other hooks and settings are kept as they are, in their order; a second merge of the
 * same group changes nothing. Pure: `settings` is not modified.
 */
export function mergeHookGroup(
  settings: Settings,
  runtimeEvent: string,
  loupeEvent: "pre-tool-use" | "post-tool-use",
  group: HookGroup | undefined,
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
    else if (!placed && group !== undefined) {
      merged.push(group);
      placed = true;
    }
  }
  if (group === undefined) return had ? { settings: withHooks(settings, hooks, runtimeEvent, merged), change: "removed" } : { settings, change: "absent" };
  if (!placed) merged.push(group);
  const change: Change = !had ? "added" : JSON.stringify(groups) === JSON.stringify(merged) ? "unchanged" : "updated";
  return { settings: { ...settings, hooks: { ...hooks, [runtimeEvent]: merged } }, change };
}

/** `settings` with `groups` as the hooks of `runtimeEvent`, the event (and `hooks`) dropped when left empty. */
function withHooks(settings: Settings, hooks: Record<string, unknown>, runtimeEvent: string, groups: unknown[]): Settings {
  const next = { ...hooks, [runtimeEvent]: groups };
  if (groups.length === 0) delete next[runtimeEvent];
  if (Object.keys(next).length > 0) return { ...settings, hooks: next };
  return without(settings, "hooks");
}

/** A copy of `settings` without `key`. */
function without(settings: Settings, key: string): Settings {
  const copy = { ...settings };
  delete copy[key];
  return copy;
}

/**
 * `settings` with `value` at `path` (objects made on the way), and whether that added, changed or kept
 * it; `value` undefined removes the entry (an object left empty on the way is dropped). Pure.
 */
export function setEntry(settings: Settings, path: readonly [string, ...string[]], value: unknown): { settings: Settings; change: Change } {
  const [key, ...rest] = path;
  const current = settings[key];
  if (rest.length === 0) {
    if (value !== undefined) return { settings: { ...settings, [key]: value }, change: changeOf(current, value) };
    return current === undefined ? { settings, change: "absent" } : { settings: without(settings, key), change: "removed" };
  }
  if (value === undefined && !isObject(current)) return { settings, change: "absent" };
  const inner = setEntry(isObject(current) ? current : {}, rest as [string, ...string[]], value);
  if (value === undefined && Object.keys(inner.settings).length === 0) return { settings: without(settings, key), change: inner.change };
  return { settings: { ...settings, [key]: inner.settings }, change: inner.change };
}

function changeOf(before: unknown, after: unknown): Change {
  if (before === undefined) return "added";
  return JSON.stringify(before) === JSON.stringify(after) ? "unchanged" : "updated";
}
