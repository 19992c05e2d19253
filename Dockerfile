# Patchgate app image in two stages. The build stage compiles TypeScript and prunes to production
# dependencies; the runtime stage holds only those, the compiled dist/, git (clones, pushes) and
# bubblewrap (the test sandbox), and runs node as the unprivileged `node` user. test/image.test.ts
# runs this file's build commands and its CMD on this machine (no Docker engine needed).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# No compiler: better-sqlite3 ships its addon built for each platform. npm's postinstall
# (bin/link-node-24.sh) does nothing on Node 24; --engine-strict refuses a package that needs more.
COPY package.json package-lock.json ./
COPY bin/link-node-24.sh ./bin/
RUN npm ci --engine-strict --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bin ./bin
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bubblewrap ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# Sessions (SQLite) and clones live on a volume so a restarted container resumes parked sessions.
RUN mkdir -p /data && chown node:node /data
WORKDIR /app
# Owned by root: the app cannot rewrite its own code or dependencies.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json app.yml ./
COPY bin ./bin
ENV NODE_ENV=production \
    PATCHGATE_DATA_DIR=/data \
    NO_SMEE_SETUP=true \
    HOST=0.0.0.0 \
    PORT=3000
VOLUME ["/data"]
EXPOSE 3000
USER node
# Probot answers GET /ping with PONG once the server listens.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/ping`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# bubblewrap needs unprivileged user namespaces inside the container: run with
# `--security-opt seccomp=unconfined --security-opt apparmor=unconfined`, or use the docker backend.
CMD ["node", "dist/main.js"]
