# Patchgate app image: the Probot server plus git (clones, pushes) and bubblewrap (the test sandbox).
FROM node:20-bookworm-slim

# python3/make/g++ build better-sqlite3 when no prebuilt binary matches; ca-certificates for HTTPS git.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bubblewrap ca-certificates python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

# Sessions (SQLite) and clones live on a volume so a restarted container resumes parked sessions.
RUN mkdir -p /app /data && chown node:node /app /data

# Everything below runs as the unprivileged `node` user (`npm start` rebuilds into /app/dist).
USER node
WORKDIR /app
COPY --chown=node:node package.json package-lock.json .npmrc ./
RUN npm ci
COPY --chown=node:node tsconfig.json tsconfig.build.json app.yml ./
COPY --chown=node:node src ./src
COPY --chown=node:node bin ./bin
RUN npm run build

ENV NODE_ENV=production \
    PATCHGATE_DATA_DIR=/data \
    NO_SMEE_SETUP=true \
    HOST=0.0.0.0 \
    PORT=3000
VOLUME ["/data"]
EXPOSE 3000

# bubblewrap needs unprivileged user namespaces inside the container: run with
# `--security-opt seccomp=unconfined --security-opt apparmor=unconfined`, or use the docker backend.
CMD ["npm", "start"]
