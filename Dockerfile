# syntax=docker/dockerfile:1
#
# The reviews service as a container image. compose.yaml runs it as several replicas on one PostgreSQL behind a
# load balancer; docs/operations.md, "Running several replicas", tells how.
#
#   docker build -t reviews-service .
#   docker run --rm -p 3000:3000 -e DATABASE_URL=postgres://… -e MCP_SESSION_SECRET=… reviews-service
#
# Two stages on the same Node.js line and Debian release, so the native module built in the first (better-sqlite3)
# matches the Node.js ABI and the glibc of the second. Node.js 24: an LTS line, and the one the test suite also runs
# on in CI besides 20 (.ci/run).
ARG NODE_IMAGE=node:24-trixie-slim

# ---- build: every dependency and a C++ toolchain; compiles TypeScript, then drops what only the build needed -----
FROM ${NODE_IMAGE} AS build
WORKDIR /app

# better-sqlite3 downloads a prebuilt binary when one matches, and compiles from source (node-gyp: python3, make,
# g++) when none does or the download is refused. This stage is thrown away, so the toolchain never ships.
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 make g++ \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, from the lockfile only: this layer is rebuilt when package*.json change, not when a source does.
# --ignore-scripts because the package's own `prepare` script (`npm run build`) needs the sources, which are not
# here yet; the one dependency with an install script, better-sqlite3, is then built by `npm rebuild`.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts --no-audit --no-fund \
    && npm rebuild better-sqlite3

# Compile (tsc is a devDependency, so it runs here), then remove the devDependencies from node_modules. Pruning keeps
# the better-sqlite3 binary built above, so the runtime stage compiles nothing and needs no toolchain; a separate
# `npm ci --omit=dev` would have to build it a second time. Of better-sqlite3 only build/Release/better_sqlite3.node
# is loaded at run time: its SQLite sources and, when it was compiled here, the objects of that build (some 25 MB)
# are left behind.
COPY tsconfig.json ./
COPY src ./src
COPY public ./public
RUN npm run build \
    && npm prune --omit=dev --no-audit --no-fund \
    && find node_modules/better-sqlite3/build -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} + \
    && find node_modules/better-sqlite3/build/Release -mindepth 1 -maxdepth 1 ! -name better_sqlite3.node -exec rm -rf {} + \
    && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src

# ---- runtime: Node.js, the compiled service and its production dependencies; nothing else ------------------------
FROM ${NODE_IMAGE} AS runtime

LABEL org.opencontainers.image.title="reviews-service" \
      org.opencontainers.image.description="Public, read-only reviews service: datasets, feeds, search, MCP and WebSub" \
      org.opencontainers.image.licenses="MIT"

ENV NODE_ENV=production
# glibc's malloc raises its mmap threshold (up to 32 MiB) whenever a large block it mapped is freed, and then keeps up
# to twice that free at the top of every arena: the first rendering and compression of a data version and the insights
# thread's build free such blocks, and some 150 MiB stayed resident after them at 100,000 reviews. A fixed threshold
# (setting it turns the raising off) gives them back: RSS after the bench's loads 478 -> 316-352 MiB (docs/operations.md, Configuration).
ENV MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app

# package.json: its "type": "module" makes Node.js load dist/ as ES modules. dist/src holds the compiled service with
# the engine's models (*.json); the insights worker thread and the engine's version fingerprint read
# dist/src/insights/ at run time (src/insights/version.ts, compiledInsightsDir). The files stay owned by root:
# the service only reads them.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
# The pages' stylesheets, scripts and icon, read once at start (src/site/assets.ts finds them beside package.json).
COPY --from=build /app/public ./public

# The unprivileged user of the official Node.js images (uid 1000). With PostgreSQL the service writes no file; a
# SQLite DATABASE_URL would need a writable volume for its folder (e.g. /app/data owned by node).
USER node

EXPOSE 3000

# Liveness through Node.js itself: the slim image has neither curl nor wget. /healthz answers 200 while the process
# runs; readiness (/readyz: a data version is built, the store answers, not shutting down) is for the load balancer.
# Assumes HOST is 0.0.0.0 (the default) or another address that includes 127.0.0.1.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# Node.js runs as PID 1 directly, without an init: the service handles SIGTERM and SIGINT itself (it drains, then
# closes; SHUTDOWN_DRAIN_MS, SHUTDOWN_GRACE_MS) and starts no child processes, only worker threads, so there are no
# zombies to reap. `docker run --init` or compose's `init: true` adds one if a deployment wants it anyway.
CMD ["node", "dist/src/main.js"]
