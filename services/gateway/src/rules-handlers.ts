import { create } from "@bufbuild/protobuf";
import { AppError } from "@loupe/errors";
import type { ServiceHandlers } from "@loupe/grpc";
import { SourceLimitSchema, type RulesService } from "@loupe/proto";
import { toSourceLimit, type SourceRules } from "@loupe/rules";

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

/** RulesService handlers for the caller's tenant. */
export function createRulesHandlers(rules: SourceRules, tenant: string): ServiceHandlers<typeof RulesService> {
  return {
    async setSourceLimit(request) {
      const rule = await rules.update(tenant, requireSource(request.source), request.limit ?? create(SourceLimitSchema));
      return { limit: toSourceLimit(rule) };
    },
    async getSourceLimit(request) {
      return { limit: toSourceLimit(await rules.get(tenant, requireSource(request.source))) };
    },
  };
}
