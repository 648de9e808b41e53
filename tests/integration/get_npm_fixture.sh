#!/usr/bin/env bash
# Installs pinned npm packages whose TypeScript (rxjs) and Java (react-native-webview's Android
# module) sources the integration tests index.
# Idempotent: does nothing when they are already there.
set -euo pipefail
dest="$(cd "$(dirname "$0")" && pwd)/.npm"
webview=node_modules/react-native-webview/android/src/main/java/com/reactnativecommunity/webview
if [ -f "$dest/node_modules/rxjs/src/index.ts" ] && [ -f "$dest/$webview/RNCWebView.java" ]; then
  exit 0
fi
mkdir -p "$dest"
cd "$dest"
[ -f package.json ] || echo '{"name":"astrag-fixtures","private":true}' > package.json
npm install --silent --no-audit --no-fund --ignore-scripts rxjs@7.8.1 >/dev/null
# without its React Native peers: only its Java sources are read
npm install --silent --no-audit --no-fund --ignore-scripts --legacy-peer-deps \
  react-native-webview@13.12.5 >/dev/null
test -f node_modules/rxjs/src/index.ts
test -f "$webview/RNCWebView.java"
