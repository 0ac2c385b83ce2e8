# Loupe archive image: `loupe archive` (internal gRPC 50052, HTTP 8082).
#
#   docker build -f deploy/docker/archive.Dockerfile -t loupe-archive .
#
# Build context = repository root (see .dockerignore). The three service
# Dockerfiles share every stage up to "runtime" word for word (checked by
# test/integration/deploy.test.ts), so a build of one warms the cache of the
# others; only the last stage differs (CMD, ports, health check port).

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- pnpm on Node 22 (corepack is not used: its signature check fails offline)
FROM ${NODE_IMAGE} AS pnpm
ARG PNPM_VERSION=12.21.0
ENV CI=true
RUN npm install --global --no-fund --no-audit --no-update-notifier "pnpm@${PNPM_VERSION}"
WORKDIR /app

# ---- the workspace manifests alone, so dependency layers stay cached until one changes
FROM pnpm AS manifests
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/archive-client/package.json packages/archive-client/
COPY packages/archive-store/package.json packages/archive-store/
COPY packages/client/package.json packages/client/
COPY packages/config/package.json packages/config/
COPY packages/conversation/package.json packages/conversation/
COPY packages/durable-file/package.json packages/durable-file/
COPY packages/errors/package.json packages/errors/
COPY packages/events/package.json packages/events/
COPY packages/eval/package.json packages/eval/
COPY packages/grpc/package.json packages/grpc/
COPY packages/ledger/package.json packages/ledger/
COPY packages/projection/package.json packages/projection/
COPY packages/proto/package.json packages/proto/
COPY packages/rules/package.json packages/rules/
COPY packages/runtime/package.json packages/runtime/
COPY packages/session-store/package.json packages/session-store/
COPY packages/state-store/package.json packages/state-store/
COPY packages/summarizer/package.json packages/summarizer/
COPY packages/telemetry/package.json packages/telemetry/
COPY packages/testing/package.json packages/testing/
COPY services/archive/package.json services/archive/
COPY services/gateway/package.json services/gateway/
COPY services/loupe/package.json services/loupe/
COPY services/note-worker/package.json services/note-worker/
COPY test/package.json test/

# ---- compile every package and service (tsc -b), then keep what runs:
# package.json and the emitted JavaScript (plus files beside them such as
# services/gateway/console, the console's page); no sources, tests, source maps or .d.ts
FROM manifests AS build
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm exec tsc -b
RUN set -eu; \
    for dir in packages/* services/*; do \
      mkdir -p "/out/$dir"; \
      tar -C "$dir" -cf - --exclude=./src --exclude=./node_modules --exclude='./tsconfig*.json' --exclude='*.tsbuildinfo' . \
        | tar -C "/out/$dir" -xf -; \
    done; \
    test -f /out/services/loupe/dist/main.js; \
    find /out -type f \( -name '*.test.js' -o -name '*.map' -o -name '*.d.ts' \) -delete

# ---- production dependencies only (same lockfile, no devDependencies, no build tools)
FROM manifests AS prod-deps
RUN pnpm install --frozen-lockfile --prod

# ---- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production LOUPE_GRPC_HOST=0.0.0.0 LOUPE_HTTP_HOST=0.0.0.0
WORKDIR /app
# Files stay owned by root: the service only reads them (read-only root filesystem in k8s).
COPY --from=prod-deps /app ./
COPY --from=build /out ./
USER node
EXPOSE 50052 8082
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.LOUPE_HTTP_PORT || 8082) + '/healthz', { signal: AbortSignal.timeout(2000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "services/loupe/dist/main.js"]
CMD ["archive"]
