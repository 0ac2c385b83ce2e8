import { AppError } from "@loupe/errors";
import type { ServiceHandlers } from "@loupe/grpc";
import type { ProjectionService } from "@loupe/proto";
import { recordSpanEvent } from "@loupe/telemetry";
import type { Logger } from "@loupe/runtime";
import { project, type ProjectDeps } from "./project.js";
import { recover, type RecoverDeps } from "./recover.js";

/** The tenant until authentication exists (DESIGN: Identity). */
export const LOCAL_TENANT = "local";

/** Counters the gateway keeps (exposed on its metrics later). */
export interface GatewayCounters {
  failOpen: number;
}

/** ProjectionService handlers. */
export function createProjectionHandlers(
  deps: Omit<ProjectDeps, "onArchiveFailure"> & RecoverDeps,
  logger: Logger,
  counters: GatewayCounters,
): ServiceHandlers<typeof ProjectionService> {
  const onArchiveFailure = (error: unknown): void => {
    counters.failOpen++;
    recordSpanEvent("loupe.archive.put_failed", { error: error instanceof Error ? error.message : String(error) });
    logger.warn("archive put failed; answering fail-open", { error });
  };
  return {
    project: (request) => project(request, LOCAL_TENANT, { ...deps, onArchiveFailure }),
    recover: (request, context) => recover(request, LOCAL_TENANT, deps, context.signal),
    cutHistory: () => Promise.reject(new AppError("unimplemented", "history cut is not available yet")),
  };
}
