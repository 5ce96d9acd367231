#!/usr/bin/env bash
# Builds Muster's image from the Dockerfile and runs it, as root, with buildah and podman:
#   1. the stand-in base images (base-images.sh: node:24-bookworm-slim, postgres:15-bookworm), unless present;
#   2. `buildah build` of the Dockerfile as localhost/muster:test, and checks on the image: it runs as
#      `node`, declares the volume and the health check, and holds no TypeScript outside node_modules;
#   3. the image on the embedded database with a named volume: the health check passes, / answers the web
#      UI's index.html and its script, a user registers, reports an incident and lists it; a new
#      container on the same volume still knows the user (same generated secrets) and the incident;
#   4. deploy/compose.yaml with podman-compose (PostgreSQL and Muster, read-only root file system
#      checked separately below): migrate completes, the server is ready, register, report, list;
#   5. the image against that PostgreSQL with `--read-only` (as deploy/kubernetes runs it) and
#      `--no-jobs`: ready, and it serves the same incident.
# Everything it started is removed at the end (images are kept; KEEP=1 keeps containers and volumes).
# Usage: deploy/test/image.test.sh   (root; buildah, podman, podman-compose, runc, mmdebstrap, curl;
#        STORAGE_DRIVER=vfs on a fresh host where overlay mounts are unavailable)
set -euo pipefail
cd "$(dirname "$0")/../.."
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/deploy/test/containers.conf}
IMAGE=localhost/muster:test
PORT=${MUSTER_TEST_PORT:-18080}
PG_PORT=$((PORT + 1))
PROJECT=muster-image-test
SUFFIX=$$
VOLUME=muster-test-data-$SUFFIX
export MUSTER_IMAGE=$IMAGE MUSTER_PORT=$PORT
export MUSTER_JWT_SECRET=test-jwt-$SUFFIX MUSTER_ENCRYPTION_KEY=test-key-$SUFFIX POSTGRES_PASSWORD=test-pg-$SUFFIX

step() { printf '\n== %s (at %ss)\n' "$*" "$SECONDS"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
cleanup() {
  [ -n "${KEEP:-}" ] && return
  # -v: also the anonymous volumes of the image's VOLUME, made for containers run without one.
  podman rm -f -v --ignore "muster-embedded-$SUFFIX" "muster-embedded2-$SUFFIX" "muster-readonly-$SUFFIX" >/dev/null 2>&1 || true
  podman ps -aq --filter "label=io.podman.compose.project=$PROJECT" | xargs -r podman rm -f -v >/dev/null 2>&1 || true
  podman-compose -p "$PROJECT" -f deploy/compose.yaml down -v >/dev/null 2>&1 || true
  podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# Waits up to $2 seconds for command $1 (a string) to succeed.
wait_for() {
  local deadline=$((SECONDS + $2))
  until eval "$1" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 1
  done
}
api() { # METHOD PATH [JSON] [TOKEN] -> body; fails on a status other than 2xx
  curl -sS --fail-with-body -X "$1" "http://127.0.0.1:$PORT/api/v1$2" -H 'content-type: application/json' \
    ${3:+-d "$3"} ${4:+-H "authorization: Bearer $4"}
}
json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=JSON.parse(s);console.log($1)})"; }

# Register (or sign in as) someone, report an incident, and check the list holds it.
exercise() { # label
  local token id list
  token=$(api POST /default/auth/register '{"email":"owner@example.com","password":"a long passphrase"}' | json v.token)
  id=$(api POST /default/incidents "{\"title\":\"$1\",\"description\":\"reported from the container test\"}" "$token" | json v.id)
  list=$(api GET "/default/incidents?itemsPerPage=-1" '' "$token")
  echo "$list" | json "v.items.some(i => i.id === $id && i.title === '$1') && v.total >= 1" | grep -qx true \
    || fail "incident $id not listed: $list"
  echo "registered, reported incident $id ($1), listed it"
  TOKEN=$token
}

step "base images"
deploy/test/base-images.sh

step "build $IMAGE"
buildah build --isolation chroot --format docker --layers -t "$IMAGE" -f Dockerfile .
config=$(podman image inspect "$IMAGE" | json 'JSON.stringify(v[0])')
echo "$config" | json "v.Config.User === 'node' && Object.keys(v.Config.Volumes ?? {}).includes('/var/lib/muster') && v.Config.ExposedPorts['8000/tcp'] !== undefined && v.Healthcheck?.Test.join(' ').includes('/api/v1/healthcheck')" |
  grep -qx true || fail "image configuration: $config"
ts=$(podman run --rm --entrypoint sh "$IMAGE" -c 'find /app -name node_modules -prune -o -name "*.ts" -print | head')
[ -z "$ts" ] || fail "TypeScript in the image: $ts"
podman run --rm "$IMAGE" --version | grep -qx 0.1.0 || fail "muster --version"
podman image ls "$IMAGE"

step "embedded database, volume $VOLUME"
podman volume create "$VOLUME" >/dev/null
podman run -d --name "muster-embedded-$SUFFIX" -p "127.0.0.1:$PORT:8000" -v "$VOLUME:/var/lib/muster" "$IMAGE" >/dev/null
wait_for "podman healthcheck run muster-embedded-$SUFFIX" 120 || { podman logs "muster-embedded-$SUFFIX"; fail "health check"; }
api GET /healthcheck/ready | json "v.status" | grep -qx ok || fail readiness
index=$(curl -sS --fail "http://127.0.0.1:$PORT/")
echo "$index" | grep -q '<title>Muster</title>' || fail "/ is not the web UI: $index"
script=$(echo "$index" | grep -o '/assets/index-[^"]*\.js' | head -1)
curl -sS --fail -o /dev/null "http://127.0.0.1:$PORT$script" || fail "web UI script $script"
echo "/ serves the web UI ($script)"
exercise "Embedded database"
podman stop -t 30 "muster-embedded-$SUFFIX" >/dev/null
podman run -d --name "muster-embedded2-$SUFFIX" -p "127.0.0.1:$PORT:8000" -v "$VOLUME:/var/lib/muster" "$IMAGE" >/dev/null
wait_for "api GET /healthcheck/ready" 120 || { podman logs "muster-embedded2-$SUFFIX"; fail "second container"; }
api GET "/default/incidents?itemsPerPage=-1" '' "$TOKEN" | json "v.items.map(i => i.title).join()" | grep -qx "Embedded database" ||
  fail "the volume did not keep the incident, or the token's secret"
echo "a new container on the volume keeps the data and accepts the old token"
podman rm -f -v "muster-embedded-$SUFFIX" "muster-embedded2-$SUFFIX" >/dev/null

step "compose: PostgreSQL and Muster"
podman-compose -p "$PROJECT" -f deploy/compose.yaml up -d
wait_for "api GET /healthcheck/ready" 180 || { podman-compose -p "$PROJECT" -f deploy/compose.yaml logs; fail "compose"; }
[ "$(podman inspect "${PROJECT}_migrate_1" --format '{{.State.ExitCode}}')" = 0 ] || fail "migrate did not complete"
podman logs "${PROJECT}_migrate_1" | tail -2
exercise "PostgreSQL"

step "read-only container, API only, against the compose PostgreSQL"
network=$(podman inspect "${PROJECT}_postgres_1" --format '{{range $k, $v := .NetworkSettings.Networks}}{{$k}}{{end}}')
podman run -d --name "muster-readonly-$SUFFIX" --read-only --tmpfs /tmp --network "$network" -p "127.0.0.1:$PG_PORT:8000" \
  -e DATABASE_URL="postgres://muster:$POSTGRES_PASSWORD@postgres:5432/muster" -e MUSTER_JWT_SECRET -e MUSTER_ENCRYPTION_KEY \
  "$IMAGE" server start --host 0.0.0.0 --port 8000 --no-jobs --no-scheduler >/dev/null
PORT=$PG_PORT wait_for "PORT=$PG_PORT api GET /healthcheck/ready" 120 || { podman logs "muster-readonly-$SUFFIX"; fail "read-only container"; }
PORT=$PG_PORT api GET "/default/incidents?itemsPerPage=-1" '' "$TOKEN" | json "v.items.map(i => i.title).join()" | grep -qx PostgreSQL ||
  fail "the read-only API node does not serve the incident"
echo "a read-only API-only container serves the same data"

step "passed"
