# syntax=docker/dockerfile:1
# ci-diagnosis: Node 20, Debian's Chromium (never a Playwright browser download) and git, run as
# the unprivileged `node` user. The TypeScript sources run through tsx, a runtime dependency, so
# there is no build step: the image holds the sources plus the production node_modules.
# How to run it next to a Gerrit: docs/containers.md.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# better-sqlite3 fetches a prebuilt binary for Node 20; the toolchain is its fallback when none fits.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error

FROM ${NODE_IMAGE}
# chromium: the report scraper; git: repository mirrors; tini: PID 1 that forwards SIGTERM and
# reaps Chromium's helper processes.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates chromium fonts-liberation git tini \
  && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production \
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
  CI_DIAGNOSIS_SERVER_HOST=0.0.0.0 \
  CI_DIAGNOSIS_SERVER_PORT=8787 \
  CI_DIAGNOSIS_STORAGE_DATA_DIR=/data \
  CI_DIAGNOSIS_SCRAPER_CHROMIUM_PATH=/usr/bin/chromium

WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
# /data: SQLite files, evidence and git mirrors (a volume); /app/out: where `demo` writes.
RUN mkdir -p /data /app/out && chown node:node /data /app/out

USER node
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.CI_DIAGNOSIS_SERVER_PORT||8787)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "bin/ci-diagnosis.js"]
CMD ["serve"]
