#!/usr/bin/env bash
# Builds the image the container tests run (localhost/shotfarm:test) from the repository's Dockerfile, as a
# user would (`docker build .`), on the stand-in base images of standin-images.sh. Docker's image format,
# because podman's default (OCI) has no HEALTHCHECK. The layers are cached between runs: a rebuild after a
# source change redoes only the TypeScript build and the layers after it.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash test/containers/standin-images.sh base
secret=()
# On machines whose egress intercepts TLS, npm in the build needs the machine's CA bundle (a build secret).
[ -f /etc/ssl/certs/ca-certificates.crt ] && secret=(--secret id=npm_ca,src=/etc/ssl/certs/ca-certificates.crt)
start=$(date +%s)
podman build -q --format docker "${secret[@]}" -t "${SHOTFARM_TEST_IMAGE:-localhost/shotfarm:test}" . >/dev/null
echo "image ${SHOTFARM_TEST_IMAGE:-localhost/shotfarm:test} built in $(( $(date +%s) - start )) s"
