#!/usr/bin/env bash
# Installs pinned npm packages whose TypeScript sources the integration tests index.
# Idempotent: does nothing when they are already there.
set -euo pipefail
dest="$(cd "$(dirname "$0")" && pwd)/.npm"
if [ -f "$dest/node_modules/rxjs/src/index.ts" ]; then
  exit 0
fi
mkdir -p "$dest"
cd "$dest"
[ -f package.json ] || echo '{"name":"astrag-fixtures","private":true}' > package.json
npm install --silent --no-audit --no-fund --ignore-scripts rxjs@7.8.1 >/dev/null
test -f node_modules/rxjs/src/index.ts
