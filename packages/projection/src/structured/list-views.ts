import { defaultView, globPattern } from "./select-view-spec.js";
import type { ViewSpec } from "./view-spec.js";

/** Where a layer of view specs comes from. */
export type ViewOrigin = "configuration" | "rule";

/** One named view of one spec, as `loupe views` and the MCP tools describe it. */
export interface ViewInfo {
  tool: string;
  source: string;
  name: string;
  when: string;
  keep: string[];
  drop: string[];
  isDefault: boolean;
  origin: ViewOrigin;
}

/**
 * Every named view of the given layers of specs, in order of precedence (the layers in order,
 * each spec's views in their order); with a tool name, only the specs whose tool glob matches it;
 * with a source, only the specs for any source or for that one.
 */
export function listViews(
  layers: readonly { origin: ViewOrigin; specs: readonly ViewSpec[] }[],
  filter: { toolName?: string; source?: string } = {},
): ViewInfo[] {
  const toolName = filter.toolName ?? "";
  const source = (filter.source ?? "").toLowerCase();
  return layers.flatMap(({ origin, specs }) =>
    specs
      .filter((spec) => toolName === "" || globPattern(spec.tool).test(toolName))
      .filter((spec) => source === "" || spec.source === undefined || spec.source.toLowerCase() === source)
      .flatMap((spec) => {
        const fallback = defaultView(spec);
        return Object.entries(spec.views).map(([name, view]) => ({
          tool: spec.tool,
          source: spec.source ?? "",
          name,
          when: view.when ?? "",
          keep: [...view.keep],
          drop: [...(view.drop ?? [])],
          isDefault: name === fallback,
          origin,
        }));
      }),
  );
}
