import { create } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import type { ServiceHandlers } from "@loupe/grpc";
import { SourceLimitSchema, type RulesService } from "@loupe/proto";
import { toSourceLimit, type SourceRule, type SourceRules } from "@loupe/rules";
import { listViews, type ViewSpec } from "@loupe/projection";
import type { StateStore } from "@loupe/state-store";
import { checkKeepTools, readRecentTools } from "./cut-history/recent-tools.js";
import { cutRuleOf } from "./cut-history/rule-pins.js";
import { ruleViewSpecs } from "./rule-view-specs.js";

const MAX_SOURCE_LENGTH = 256;

/**
 * Checks a source (app) name.
 * @throws AppError `invalid_argument`
 */
export function requireSource(source: string): string {
  if (source === "") throw new AppError("invalid_argument", "source is required");
  if (source.length > MAX_SOURCE_LENGTH) throw new AppError("invalid_argument", `source longer than ${String(MAX_SOURCE_LENGTH)} characters`);
  return source;
}

/** What GetSourceLimit answers beside the rule: the app's recent tools and whether keep_tools matches any. */
export interface RuleToolsCheck {
  recentTools: string[];
  keepToolsMatched?: boolean;
  warning: string;
}

/** The recent tool names of an app and the keep_tools check of its rule against them. */
export async function ruleToolsCheck(state: StateStore, tenant: string, source: string, rule: SourceRule): Promise<RuleToolsCheck> {
  const recentTools = (await readRecentTools(state, tenant, source)) ?? [];
  const check = checkKeepTools(cutRuleOf(rule), recentTools);
  return { recentTools, warning: check.warning, ...(check.matched === undefined ? {} : { keepToolsMatched: check.matched }) };
}

const MAX_TOOL_NAME_LENGTH = 256;

/** RulesService handlers for the caller's tenant; `viewSpecs` are the configuration's field views. */
export function createRulesHandlers(
  rules: SourceRules,
  tenant: string,
  state: StateStore,
  viewSpecs: readonly ViewSpec[],
): ServiceHandlers<typeof RulesService> {
  return {
    async setSourceLimit(request) {
      const rule = await rules.update(tenant, requireSource(request.source), request.limit ?? create(SourceLimitSchema));
      return { limit: toSourceLimit(rule) };
    },
    async getSourceLimit(request) {
      const source = requireSource(request.source);
      const rule = await rules.get(tenant, source);
      return { limit: toSourceLimit(rule), ...(await ruleToolsCheck(state, tenant, source, rule)) };
    },
    async listViews(request) {
      if (request.toolName.length > MAX_TOOL_NAME_LENGTH)
        throw new AppError("invalid_argument", `tool_name longer than ${String(MAX_TOOL_NAME_LENGTH)} characters`);
      const ruleSpecs = request.source === "" ? [] : ruleViewSpecs(await rules.get(tenant, requireSource(request.source)));
      const layers = [
        { origin: "configuration" as const, specs: viewSpecs },
        { origin: "rule" as const, specs: ruleSpecs },
      ];
      return { views: listViews(layers, { toolName: request.toolName, source: request.source }) };
    },
  };
}
