import { create } from "@bufbuild/protobuf";
import { Health, HealthCheckResponseSchema, HealthCheckResponse_ServingStatus as ServingStatus, type HealthCheckResponse } from "@loupe/proto";
import { AppError } from "@loupe/errors";
import { registerService, type ServiceRegistration } from "./server.js";

/** The health state of a server, per service name ("" = the server as a whole). */
export interface HealthReporter {
  readonly registration: ServiceRegistration;
  /** Sets a service's status; watchers see the change at once. */
  setStatus(service: string, serving: boolean): void;
  /** Marks every known service NOT_SERVING (on shutdown). */
  shutdown(): void;
  /** True when the overall status ("") is SERVING. */
  isServing(): boolean;
}

/**
 * Creates a grpc.health.v1.Health implementation. `services` are the fully
 * qualified names that start SERVING, along with the overall status "".
 */
export function createHealthReporter(services: readonly string[]): HealthReporter {
  const statuses = new Map<string, ServingStatus>([["", ServingStatus.SERVING]]);
  for (const name of services) statuses.set(name, ServingStatus.SERVING);
  const watchers = new Set<() => void>();
  const notify = (): void => {
    for (const wake of watchers) wake();
  };
  const response = (status: ServingStatus): HealthCheckResponse => create(HealthCheckResponseSchema, { status });

  const registration = registerService(Health, {
    check(request) {
      const status = statuses.get(request.service);
      if (status === undefined) return Promise.reject(new AppError("not_found", `unknown service [service=${request.service}]`));
      return Promise.resolve(response(status));
    },
    async *watch(request, context) {
      let last: ServingStatus | undefined;
      while (!context.signal.aborted) {
        const status = statuses.get(request.service) ?? ServingStatus.SERVICE_UNKNOWN;
        if (status !== last) {
          last = status;
          yield response(status);
        }
        await new Promise<void>((resolve) => {
          const wake = (): void => {
            watchers.delete(wake);
            context.signal.removeEventListener("abort", wake);
            resolve();
          };
          watchers.add(wake);
          context.signal.addEventListener("abort", wake, { once: true });
        });
      }
    },
  });

  return {
    registration,
    setStatus(service, serving) {
      statuses.set(service, serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
      notify();
    },
    shutdown() {
      for (const name of statuses.keys()) statuses.set(name, ServingStatus.NOT_SERVING);
      notify();
    },
    isServing: () => statuses.get("") === ServingStatus.SERVING,
  };
}
