# The Cadre worker image used by docker-compose.yml (service cadre-worker).
FROM node:24-bookworm-slim

WORKDIR /app
RUN chown node:node /app
USER node
ENV CI=true

# Dependencies first, so code changes do not reinstall them.
COPY --chown=node:node package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY --chown=node:node . .
ENV NODE_ENV=production

# Connects to TEMPORAL_ADDRESS (set by docker-compose.yml); no embedded server is started.
# node itself is PID 1 (with init: true in compose), so SIGTERM from `docker stop` reaches the worker.
CMD ["node", "--import", "tsx", "src/cli/main.ts", "worker"]
