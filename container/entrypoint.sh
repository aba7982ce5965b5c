#!/bin/sh
# The image's entrypoint, under tini: `shotfarm ROLE [flags]` (serve, api, agent, or any other subcommand);
# a command that is a program in the image (sh, node, ...) runs as it is.
set -eu
if [ "$#" -eq 0 ]; then set -- serve; fi
if command -v -- "$1" >/dev/null 2>&1; then exec "$@"; fi
# A farm started with no configured key still prints one: the api role, like serve, generates the bootstrap
# key once and keeps it in the data folder (the same file and format as serve). Several api replicas need
# one SHOTFARM_BOOTSTRAP_KEY (and JWT_SECRET, SHOTFARM_SECRETS_KEY) given to all of them instead.
if [ "$1" = api ] && [ -z "${SHOTFARM_BOOTSTRAP_KEY:-}" ]; then
  SHOTFARM_BOOTSTRAP_KEY=$(node --input-type=module -e "
    import { keptInDataDir } from '/app/dist/api/accounts/data-dir-secret.js';
    import { generateApiKey } from '/app/dist/api/accounts/api-keys.js';
    process.stdout.write(keptInDataDir(process.env.SHOTFARM_DATA_DIR, 'bootstrap-key', generateApiKey));")
  export SHOTFARM_BOOTSTRAP_KEY
fi
exec node /app/dist/bin/shotfarm.js "$@"
