import type { HandlerContext } from "@loupe/grpc";
import { requireSourceScope, type Authenticator, type Principal } from "./authenticator.js";

// Handler sets are small closures: kept for this many tenants, the least recently used dropped first.
const MAX_TENANTS = 1024;

type Handlers = Record<string, (request: never, context: HandlerContext) => unknown>;

/** What may stand between an authenticated call and its handler. */
export interface CallGuards<H> {
  /** Refuses a call for its principal (a scope) before it runs. */
  check?: (method: keyof H, request: unknown, principal: Principal) => void;
  /** Per-tenant rate limit, checked before admission. */
  rateLimit?: (tenant: string) => Promise<void>;
  /** Runs the call once the process admits it (bounded in-flight work). */
  admit?: <T>(call: () => Promise<T>) => Promise<T>;
}

/**
 * A service's handlers that authenticate each call and serve it with the handler set of the
 * caller's tenant (made by `make`, cached), after the guards: the scope check, the tenant's rate
 * limit, admission. The tenant only ever comes from the caller's credentials.
 */
export function perTenant<H extends Handlers>(auth: Authenticator, make: (tenant: string) => H, guards: CallGuards<H> = {}): H {
  const sets = new Map<string, H>();
  const setFor = (tenant: string): H => {
    let set = sets.get(tenant);
    if (set === undefined) {
      set = make(tenant);
      if (sets.size >= MAX_TENANTS) sets.delete(sets.keys().next().value as string);
    } else sets.delete(tenant);
    sets.set(tenant, set);
    return set;
  };
  const sample = make("_sample");
  const wrapped: Record<string, unknown> = {};
  for (const method of Object.keys(sample)) {
    wrapped[method] = async (request: never, context: HandlerContext) => {
      const principal = await auth.principal(context.metadata);
      // A token made for some apps acts for them only, whatever the service.
      requireSourceScope(principal, (request as { source?: unknown } | undefined)?.source);
      guards.check?.(method, request, principal);
      await guards.rateLimit?.(principal.tenant);
      const handler = setFor(principal.tenant)[method] as (request: never, context: HandlerContext) => unknown;
      return guards.admit === undefined ? handler(request, context) : guards.admit(() => Promise.resolve(handler(request, context)));
    };
  }
  return wrapped as H;
}
