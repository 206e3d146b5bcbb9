# The Cadre worker image (docker-compose.yml, service cadre-worker): compiled JavaScript and
# production dependencies only, run as the unprivileged `node` user.

# --- build: every dependency, then TypeScript to dist/ -------------------------------------------
FROM node:24-bookworm-slim AS build
WORKDIR /app
ENV CI=true
# Dependencies first, so code changes do not reinstall them. `prepare` (a build) is dropped here
# because the sources are not copied yet; the build runs below.
COPY package.json package-lock.json ./
RUN npm pkg delete scripts.prepare && npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY examples ./examples
RUN npm run build

# --- runtime: production dependencies and dist/ ---------------------------------------------------
FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV CI=true NODE_ENV=production
COPY package.json package-lock.json ./
# The code is compiled already: drop `prepare`, which would build again without devDependencies.
# tsx stays (a production dependency): it lets the worker load a mounted agents module in TypeScript.
RUN npm pkg delete scripts.prepare \
  && npm ci --omit=dev --no-audit --no-fund \
  && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY docker/healthcheck.cjs ./docker/healthcheck.cjs
USER node

# Healthy while this container's worker polls its workflow task queue on the Temporal server.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "docker/healthcheck.cjs"]

# Connects with TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE / TEMPORAL_API_KEY / TLS settings or a
# TEMPORAL_PROFILE; serves the agents module named by CADRE_AGENTS. node runs under an init
# process (init: true in compose), so SIGTERM from `docker stop` reaches the worker.
CMD ["node", "dist/src/cli/main.js", "worker"]
