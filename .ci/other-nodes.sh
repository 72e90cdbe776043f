#!/usr/bin/env bash
# Runs the test suite again on each Node.js version given, besides the machine's own: users run
# Node.js 22 and 24 too. Each runtime comes from the npm registry as the package
# node-<platform>-<arch>, which holds the binary and the headers that better-sqlite3 compiles
# against; the project is copied without its node_modules and installed for it with `npm ci`.
#
# The runtime and that install (better-sqlite3 compiled twice: most of its minutes) are kept in
# a cache, keyed by the version and by package.json and package-lock.json, so the next run with
# the same lockfile reuses them: PLANTSTORE_CI_CACHE, by default ~/.cache/plantstore-ci (outside
# the clone, so a fresh clone reuses it too). A cache entry is written whole or not at all.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${PLANTSTORE_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/plantstore-ci}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
package="node-$(node -p 'process.platform + "-" + process.arch')"
lock_key="$(cat "$root/package.json" "$root/package-lock.json" | sha256sum | cut -c1-16)"
mkdir -p "$cache"

# Moves a finished folder into the cache; another run that got there first wins.
keep() { mv -T "$1" "$2" 2>/dev/null || rm -rf "$1"; }

for version in "$@"; do
  echo "== npm test on Node.js $version"
  runtime="$cache/$package-$version"
  if [ ! -x "$runtime/bin/node" ]; then
    mkdir -p "$work/runtime"
    (cd "$work" && npm pack --silent "$package@$version" >/dev/null)
    tar -xzf "$work/$package-$version.tgz" -C "$work/runtime" --strip-components=1
    keep "$work/runtime" "$runtime"
  fi
  project="$work/project-$version"
  mkdir -p "$project"
  tar -C "$root" --exclude=./node_modules --exclude=./dist --exclude=./data --exclude=./.git -c . | tar -C "$project" -x
  installed="$cache/node_modules-$version-$lock_key"
  (
    cd "$project"
    export PATH="$runtime/bin:$PATH" npm_config_nodedir="$runtime"
    test "$(node --version)" = "v$version"
    if [ -d "$installed" ]; then
      echo "node_modules for Node.js $version and this lockfile from the cache"
      cp -a "$installed" node_modules
    else
      npm ci
      cp -a node_modules "$work/node_modules-$version"
      keep "$work/node_modules-$version" "$installed"
    fi
    # The lint's verdict does not depend on the runtime: the machine's own run has it (lint.test.ts).
    PLANTSTORE_LINTED=yes npm test
  )
  rm -rf "$project"
done
# Entries of lockfiles other than this one are left for a week, then removed.
find "$cache" -mindepth 1 -maxdepth 1 -name 'node_modules-*' ! -name "*-$lock_key" -mtime +7 -exec rm -rf {} + || true
