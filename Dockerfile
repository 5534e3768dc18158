# no-mistakes: Node 20 with git, the pinned agent CLIs (Claude Code, Codex) and bubblewrap (+ socat, its model bridge), the sandbox every
# agent call runs in (run the container with the --security-opt flags the README's Docker section names), and
# mount, with which a turn's outer sandbox mounts the overlays that bound what the agent writes;
# data (embedded database, workspaces, agent sessions) in /data. A repository's checks (setup, tests,
# reproducers) run on the image's toolchains: Node (the base image's, with npm) and Python 3 (with venv and
# pip); an image with another toolchain (Go, Rust) is built FROM this one.
# The build stage compiles src/ to dist/ (npm run build: tsc, with dev dependencies); the final stage runs
# plain `node dist/index.js` with production dependencies only (no tsx, no TypeScript).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Only tsc runs here: no install scripts needed.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim

RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates tini bubblewrap socat mount \
     python3 python3-venv python3-pip \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# dist/ must sit beside package.json, drizzle/ and node_modules/: modules find them relative to their own file.
COPY app.yml ./
COPY drizzle ./drizzle
COPY --from=build /app/dist ./dist

# Without APP_ID the app serves GitHub's setup flow, as `npm start` does, and saves the new App's
# credentials in ENV_FILE, on the /data volume: the next start of the container reads them from there.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    ENV_FILE=/data/.env
# The app runs as the image's unprivileged `node` user (uid 1000), never root: /data (and /config, where
# docker-compose.yml keeps the credentials its containers share) is created and handed to it before VOLUME,
# so a fresh named volume starts owned by it. bubblewrap then needs unprivileged user namespaces (Debian's
# bwrap is not setuid), which the README's Docker flags allow.
RUN mkdir -p /data /config && chown node:node /data /config
VOLUME ["/data"]
USER node
EXPOSE 3000

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"

ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--no-parallel-scavenge", "--min-semi-space-size=16", "--no-memory-reducer", "dist/index.js"]
