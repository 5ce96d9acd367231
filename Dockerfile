# Muster's container image: the program built into one JavaScript file (dist/, bin/build.js), the
# production dependencies, the built web UI (ui/dist) and the schema revisions, run as the
# unprivileged `node` user.
#   docker build -t muster .
#   docker run -p 8000:8000 -v muster-data:/var/lib/muster muster            # embedded database
#   docker run -p 8000:8000 -e DATABASE_URL=postgres://... -e MUSTER_JWT_SECRET=... \
#     -e MUSTER_ENCRYPTION_KEY=... muster                                    # PostgreSQL server
# Node 24 (LTS): the API spends 15-35% less CPU per request than on Node 22 (docs/deployment.md).
ARG NODE_IMAGE=docker.io/library/node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts wait for the sources: npm's prepare would build dist/ before src/ is copied in. esbuild's
# install script only checks its binary, which esbuild's API (the build, tsx) finds without it.
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json ./
COPY bin/build.js ./bin/
COPY src ./src
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    MUSTER_DATA_DIR=/var/lib/muster
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# bin/muster.js runs dist/ while it is current: with no TypeScript source beside it, it always is.
COPY bin/muster.js bin/built.js ./bin/
COPY ui/dist ./ui/dist
# Revisions are SQL read at run time, not code.
COPY src/db/revisions ./src/db/revisions
RUN mkdir -p /var/lib/muster && chown node:node /var/lib/muster \
 && ln -s /app/bin/muster.js /usr/local/bin/muster
USER node
# The embedded database and its generated secrets (unused with DATABASE_URL).
VOLUME /var/lib/muster
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8000/api/v1/healthcheck').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/bin/muster.js"]
CMD ["server", "start", "--host", "0.0.0.0", "--port", "8000"]
