# shotfarm's one image: the same image runs every role, picked by the command (docker run IMAGE serve | api |
# agent, or any other shotfarm subcommand). See docs/operators.md.
#   docker build -t shotfarm .
# Behind a proxy that intercepts TLS, give npm its CA bundle as a build secret (it stays out of the layers):
#   docker build --secret id=npm_ca,src=/etc/ssl/certs/ca-certificates.crt -t shotfarm .
# Node: the image runs Node 24 LTS (package.json "engines" lists the versions shotfarm supports).
ARG NODE_IMAGE=docker.io/library/node:24-bookworm-slim

# ---- dependencies: every npm package (the build needs the dev ones: TypeScript and the types) ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install` honours package-lock.json (the Makefile says why not `npm ci`).
RUN --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi; \
    npm install --no-fund --no-audit --no-update-notifier

# ---- build: TypeScript to dist/, without the tests ----
FROM deps AS build
COPY tsconfig.json ./
COPY bin ./bin
COPY api ./api
COPY core ./core
COPY drivers ./drivers
COPY grid ./grid
COPY node-agent ./node-agent
COPY plugins ./plugins
# tsconfig.json as it is, less the test folder (and the mocha types only the tests use).
RUN echo '{"extends":"./tsconfig.json","include":["bin","core","drivers","api","node-agent","plugins","grid"],"compilerOptions":{"types":["node"],"incremental":false}}' > tsconfig.image.json \
 && npx tsc -p tsconfig.image.json \
 && chmod +x dist/bin/shotfarm.js

# ---- production dependencies only (independent of the sources, so cached across code changes) ----
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-fund --no-audit --no-update-notifier

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
# The browsers, ffmpeg (video) and fonts from Debian, as `make system-deps` installs them on a host
# (Makefile SYSTEM_PACKAGES, less the chromedriver of the selenium tests), plus Liberation (metric-compatible
# Arial/Times for pages that name them) and tini, the init that forwards SIGTERM so an agent drains.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      chromium firefox-esr ffmpeg fonts-noto-color-emoji fonts-noto-cjk fonts-liberation tini ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown node:node /data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY api/dashboard/public ./api/dashboard/public
COPY drivers/brave/filters ./drivers/brave/filters
COPY container/entrypoint.sh /usr/local/bin/shotfarm-entrypoint
RUN ln -s /app/dist/bin/shotfarm.js /usr/local/bin/shotfarm
# The settings' defaults (CHROMIUM_PATH, FIREFOX_PATH, ffmpeg on PATH) are where Debian puts the browsers.
ENV SHOTFARM_DATA_DIR=/data
# Not root: the browsers run with the node user's rights (Chromium's own sandbox is off, --no-sandbox).
USER node
EXPOSE 8080
# /healthz answers on PORT for every role: the API's (serve, api) and an agent's own (503 while it drains).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 8080}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/shotfarm-entrypoint"]
CMD ["serve"]
