#!/usr/bin/env bash
# Runs the test suite again on each Node.js version given, besides the machine's own: users run
# Node.js 22 and 24 too. Each runtime comes from the npm registry as the package
# node-<platform>-<arch>, which holds the binary and the headers that better-sqlite3 compiles
# against; the project is copied without its node_modules and installed afresh for it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
package="node-$(node -p 'process.platform + "-" + process.arch')"

for version in "$@"; do
  echo "== npm test on Node.js $version"
  runtime="$work/node-$version"
  project="$work/project-$version"
  mkdir -p "$runtime" "$project"
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null)
  tar -xzf "$work/$package-$version.tgz" -C "$runtime" --strip-components=1
  tar -C "$root" --exclude=./node_modules --exclude=./dist --exclude=./data --exclude=./.git -c . | tar -C "$project" -x
  (
    cd "$project"
    export PATH="$runtime/bin:$PATH" npm_config_nodedir="$runtime"
    test "$(node --version)" = "v$version"
    npm ci
    npm test
  )
  rm -rf "$project" "$runtime"
done
