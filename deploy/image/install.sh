#!/bin/sh
# deploy/image/install.sh PACKAGES_DIR PREFIX: installs every packed package of PACKAGES_DIR into
# PREFIX with npm as a user's project would, without dev dependencies; `kubesched` is then
# PREFIX/node_modules/.bin/kubesched. The third-party dependencies come from the npm registry.
# Used by the Dockerfile and by deploy/image/build.sh.
#
# --legacy-peer-deps: every workspace package the CLI needs is one of the tarballs, but between
# releases the workspace's versions (0.0.0) are not in the plugins' peer ranges for the framework
# (the released line); `changeset version` aligns them at release.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 PACKAGES_DIR PREFIX" >&2; exit 2; }
packages=$(cd "$1" && pwd)
mkdir -p "$2"
cd "$2"
[ -f package.json ] || printf '{ "name": "kubesched-image", "private": true }\n' > package.json
npm install --omit=dev --legacy-peer-deps --no-audit --no-fund --no-update-notifier --loglevel=error "$packages"/*.tgz
test -x node_modules/.bin/kubesched
