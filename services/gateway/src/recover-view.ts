import { createHash } from "node:crypto";
import { AppError } from "@loupe/errors";
import { applyFieldView, selectView, type ViewSpec } from "@loupe/projection";
import type { ResultRecord } from "@loupe/proto";
import type { SourceRules } from "@loupe/rules";
import { ruleViewSpecs } from "./rule-view-specs.js";

/** Where a recovery finds the field views of a saved result: the configuration's, then its source's rule. */
export interface ViewSources {
  viewSpecs: readonly ViewSpec[];
  sourceRules: SourceRules;
}

/** A saved value shaped by a named field view, and a digest of that view's definition (a cursor refuses a changed view). */
export interface ViewShaped {
  value: unknown;
  digest: string;
}

/**
 * Shapes a saved structured result by the field view `view` names for its tool and source (the
 * configuration's specs first, then the source's rule), as a first view would have been shaped.
 * @throws AppError `invalid_argument` when no view of that name applies to the result's tool (naming those that do)
 */
export async function shapeSaved(value: unknown, record: ResultRecord, view: string, tenant: string, deps: ViewSources): Promise<ViewShaped> {
  const rule = record.source === "" ? undefined : await deps.sourceRules.get(tenant, record.source);
  const selected = selectView([deps.viewSpecs, ruleViewSpecs(rule)], { source: record.source, toolName: record.toolName, view });
  if (selected === undefined) {
    throw new AppError("invalid_argument", `no field views apply to this result's tool [view=${view}, tool=${record.toolName}, source=${record.source}]`);
  }
  const digest = createHash("sha256").update(JSON.stringify(selected.view)).digest("base64url").slice(0, 12);
  return { value: applyFieldView(value, selected.view).value, digest };
}
