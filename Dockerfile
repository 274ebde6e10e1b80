# syntax=docker/dockerfile:1
# The container image of `kubesched run`, as deploy/kubesched.yaml deploys it:
#
#   docker build -t kubesched .          (NODE_VERSION 22 or 24: --build-arg NODE_VERSION=22)
#
# Where no base image can be pulled, deploy/image/build.sh makes the same image from Debian's
# packages and the npm registry only (see deploy/README.md); both run the same pack and install
# steps (deploy/image/pack.sh, deploy/image/install.sh).
ARG NODE_VERSION=24
ARG DEBIAN_RELEASE=bookworm

# 1. Build the workspace and pack the packages the image runs, as `pnpm publish` uploads them.
FROM node:${NODE_VERSION}-${DEBIAN_RELEASE}-slim AS build
WORKDIR /src
COPY . .
RUN npx -y pnpm@9 install --frozen-lockfile && sh deploy/image/pack.sh /packages

# 2. Install the packed packages with npm as a user's project would: no dev dependencies.
FROM node:${NODE_VERSION}-${DEBIAN_RELEASE}-slim AS install
COPY --from=build /packages /packages
COPY deploy/image/install.sh /install.sh
RUN sh /install.sh /packages /opt/kubesched

# 3. Debian, Node.js and the installed packages: no npm, no compilers, not root.
FROM debian:${DEBIAN_RELEASE}-slim
COPY --from=install /usr/local/bin/node /usr/local/bin/node
COPY --from=install /opt/kubesched /opt/kubesched
ENV PATH=/opt/kubesched/node_modules/.bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_ENV=production
USER 65532:65532
EXPOSE 10259
ENTRYPOINT ["kubesched"]
CMD ["run"]
