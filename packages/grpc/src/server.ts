import type { DescService } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { AppError } from "@loupe/errors";
import type { ServiceHandlers } from "./handler-types.js";
import { messageLimitOptions } from "./message-limits.js";
import { createServiceDefinition } from "./service-definition.js";
import { createServiceImplementation, type ErrorObserver } from "./service-implementation.js";

/** One service and its handlers, as registered on a server. */
export interface ServiceRegistration {
  service: DescService;
  handlers: object;
}

/** Pairs a service descriptor with its typed handlers. */
export function registerService<S extends DescService>(service: S, handlers: ServiceHandlers<S>): ServiceRegistration {
  return { service, handlers };
}

/** Options for {@link startGrpcServer}. */
export interface GrpcServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Binds this address instead of host:port (e.g. "unix:/path/to.sock"). */
  address?: string;
  services: readonly ServiceRegistration[];
  /** Largest result accepted; message limits are raised to match. */
  maxResultBytes: number;
  /** Sees every handler error (log it, put it on the span). */
  onError?: ErrorObserver;
  /** PEM certificate chain and private key: serve TLS instead of plaintext. */
  tls?: { cert: Buffer; key: Buffer };
}

/** A running gRPC server. */
export interface GrpcServer {
  /** The bound port (useful with port 0). */
  readonly port: number;
  readonly server: grpc.Server;
  /** Stops accepting calls, lets running ones finish for up to `graceMs`, then cancels the rest. */
  shutdown(graceMs?: number): Promise<void>;
}

/** Default time running calls get to finish on shutdown. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/**
 * Starts a grpc-js server with the given services on host:port.
 * @throws AppError `unavailable` when the address cannot be bound.
 */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServer> {
  const server = new grpc.Server(messageLimitOptions(options.maxResultBytes));
  for (const { service, handlers } of options.services) {
    server.addService(createServiceDefinition(service), createServiceImplementation(service, handlers as ServiceHandlers<DescService>, options.onError));
  }
  const address = options.address ?? `${options.host.includes(":") ? `[${options.host}]` : options.host}:${String(options.port)}`;
  const port = await new Promise<number>((resolve, reject) => {
    const credentials =
      options.tls === undefined
        ? grpc.ServerCredentials.createInsecure()
        : grpc.ServerCredentials.createSsl(null, [{ cert_chain: options.tls.cert, private_key: options.tls.key }], false);
    server.bindAsync(address, credentials, (error, bound) => {
      if (error) reject(new AppError("unavailable", `cannot bind grpc server [address=${address}]`, { cause: error }));
      else resolve(bound);
    });
  });
  return {
    port,
    server,
    shutdown: (graceMs = DEFAULT_SHUTDOWN_GRACE_MS) => shutdownServer(server, graceMs),
  };
}

function shutdownServer(server: grpc.Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    timer.unref();
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
