#!/bin/sh
# deploy/image/pack.sh OUT_DIR: the packages the image installs, packed as `pnpm publish` uploads
# them (publishConfig applied, workspace: and catalog: ranges resolved): @kubesched/cli with the
# workspace packages it depends on, and the out-of-tree plugins (for --plugin). Run from a
# checkout after `pnpm install`; builds first (a turbo cache hit when dist/ is current).
# Used by the Dockerfile and by deploy/image/build.sh.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$(dirname "$0")/../.."
pnpm=${PNPM:-npx -y pnpm@9}
$pnpm -s build
$pnpm -s -r --filter-prod '@kubesched/cli...' --filter-prod './packages/plugins-contrib/*' \
  exec pnpm pack --pack-destination "$out" >/dev/null
ls "$out"/*.tgz >/dev/null
