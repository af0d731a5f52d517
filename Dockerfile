# crd-yaml as a container image: `docker build -t crd-yaml .`, then
#   docker run --rm -v "$PWD:/work" crd-yaml check .
# The first stage packs the npm package from these sources (npm ci, npm pack: its prepack script builds
# the bundles); the image installs only that tarball (no dependencies) on a small Node base.
FROM node:22-bookworm-slim AS pack
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund && npm pack --pack-destination /tmp && mv /tmp/crd-yaml-*.tgz /tmp/crd-yaml.tgz

FROM node:22-alpine
COPY --from=pack /tmp/crd-yaml.tgz /tmp/crd-yaml.tgz
RUN npm install -g --no-audit --no-fund /tmp/crd-yaml.tgz && rm /tmp/crd-yaml.tgz && npm cache clean --force
USER node
WORKDIR /work
ENTRYPOINT ["crd-yaml"]
CMD ["--help"]
