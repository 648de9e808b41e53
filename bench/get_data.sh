#!/usr/bin/env bash
# Fetch the benchmark corpora into bench/data/ (git-ignored). Idempotent: a corpus whose
# directory already holds its .stamp is left alone; delete the directory to refetch it.
#
# Registry-based corpora (always fetched; pinned versions):
#   ts-classes/rxjs    npm rxjs@7.8.1, its shipped src/     - class-heavy TS, accuracy
#   ts-speed/effect    npm effect@4.1.0, its shipped src/   - >= 300k lines TS, speed
#   py-acc/rich        PyPI sdist rich==13.9.4, rich/       - class-heavy typed Python, accuracy
#   py-speed/django    PyPI sdist Django==5.1.4, django/ + tests/ - >= 300k lines Python, speed
#   py-incr/pydantic   PyPI sdist pydantic==2.10.4, pydantic/  - re-exporting Python, incremental
# GitHub-only corpus (fetched only when you provide it; see DATA.md):
#   ts-di/nestjs-graphql  github.com/nestjs/graphql @ 5f53531469b19af85c9c60cb853428852d2caebd,
#                         packages/graphql (lib/ + tests/) - NestJS DI-style TS, accuracy.
#                         Set NESTJS_GRAPHQL_SRC to a checkout of that commit, or to a bare git
#                         dir that contains it. Its type dependencies come from npm.
#   ts-speed/typeorm      github.com/typeorm/typeorm @ 281bfba42a5813b106bcf5ba79bc7f7251bd1e73,
#                         the repo minus docs/ and docker/ - >= 300k lines TS that tree-sitter
#                         parses cleanly (a third of effect's files hit its variance-annotation
#                         gap). TYPEORM_SRC, same rules; runtime + test typings from npm.
# Then get_acc_data.sh: the 12 accuracy corpora of bench/data/acc/ and the large speed corpora
# of bench/data/speed/ (its header lists their pins and variables).
# Also installs the TypeScript compiler oracle's own dependency (bench/package.json).
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="$BENCH/data"
DL="$DATA/.downloads"
mkdir -p "$DL"

NESTJS_GRAPHQL_COMMIT=5f53531469b19af85c9c60cb853428852d2caebd
TYPEORM_COMMIT=281bfba42a5813b106bcf5ba79bc7f7251bd1e73

# shellcheck source=get_data_lib.sh
source "$BENCH/get_data_lib.sh"

fetch_nestjs_graphql() {
    local dest=$DATA/ts-di/nestjs-graphql
    done_already "$dest" && return 0
    local tmp
    tmp=$(export_github NESTJS_GRAPHQL_SRC nestjs/graphql "$NESTJS_GRAPHQL_COMMIT" packages/graphql)
    [[ -n "$tmp" ]] || return 0
    rm -rf "$dest"; mkdir -p "$dest"
    cp -r "$tmp/lib" "$tmp/tests" "$dest/"
    cp "$tmp/package.json" "$dest/package.upstream.json"
    rm -rf "$tmp"
    # Upstream's tsconfig chain (../tsconfig.build.json + tsconfig.spec.json) flattened into
    # one file, so the compiler oracle sees both lib/ and tests/ with upstream's options.
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "target": "ES2021",
    "strict": false,
    "noImplicitAny": false,
    "emitDecoratorMetadata": true,
    "experimentalDecorators": true,
    "skipLibCheck": true,
    "resolveJsonModule": true,
    "esModuleInterop": true,
    "allowSyntheticDefaultImports": true,
    "noEmit": true,
    "types": ["node", "vitest/globals"]
  },
  "include": ["lib/**/*.ts", "tests/**/*.ts"]
}
EOF
    # Upstream depends on unreleased "next" Nest packages; these released versions give the
    # checker the external declarations (so calls into Nest/graphql/vitest count as external,
    # not unresolved). Only types matter: install scripts are skipped.
    cat > "$dest/package.json" <<'EOF'
{
  "name": "nestjs-graphql-bench-corpus",
  "private": true,
  "type": "module",
  "dependencies": {
    "@apollo/subgraph": "2.15.1",
    "@graphql-tools/merge": "9.2.3",
    "@graphql-tools/schema": "10.1.0",
    "@graphql-tools/utils": "12.0.0",
    "@nestjs/common": "12.5.1",
    "@nestjs/core": "12.5.1",
    "@nestjs/mapped-types": "2.1.1",
    "@nestjs/testing": "12.1.1",
    "@types/node": "24.13.3",
    "@types/normalize-path": "3.0.2",
    "@types/ws": "8.18.1",
    "chokidar": "4.0.3",
    "class-transformer": "0.5.1",
    "class-validator": "0.15.1",
    "es-toolkit": "1.51.0",
    "graphql": "16.14.2",
    "graphql-subscriptions": "3.0.0",
    "graphql-tag": "2.12.7",
    "graphql-ws": "6.2.1",
    "normalize-path": "3.0.0",
    "reflect-metadata": "0.2.2",
    "rxjs": "7.8.2",
    "tinyglobby": "0.2.17",
    "ts-morph": "28.0.0",
    "tslib": "2.8.1",
    "vitest": "4.1.4",
    "ws": "8.21.3"
  }
}
EOF
    (cd "$dest" && npm install --ignore-scripts --legacy-peer-deps --no-audit --no-fund \
        --loglevel=error >&2)
    stamp "$dest" "github nestjs/graphql@$NESTJS_GRAPHQL_COMMIT packages/graphql"
}

fetch_typeorm() {
    local dest=$DATA/ts-speed/typeorm
    done_already "$dest" && return 0
    local tmp
    tmp=$(export_github TYPEORM_SRC typeorm/typeorm "$TYPEORM_COMMIT" "")
    [[ -n "$tmp" ]] || return 0
    rm -rf "$dest"; mkdir -p "$dest"
    rm -rf "$tmp/docs" "$tmp/docker" "$tmp/.git"
    cp -r "$tmp/." "$dest/"
    rm -rf "$tmp"
    # Upstream's package.json demands pnpm (devEngines) and npm refuses it, so npm gets one of
    # its own: the runtime dependencies, the tsconfig base upstream extends, test typings.
    mv "$dest/package.json" "$dest/package.upstream.json"
    cat > "$dest/package.json" <<'EOF'
{
  "name": "typeorm-bench-corpus",
  "private": true,
  "dependencies": {
    "@sqltools/formatter": "1.2.5",
    "@tsconfig/node20": "20.1.10",
    "@types/chai": "4.3.9",
    "@types/debug": "4.1.13",
    "@types/mocha": "10.0.10",
    "@types/node": "20.9.5",
    "@types/yargs": "17.0.35",
    "ansis": "4.5.0",
    "dayjs": "1.11.23",
    "debug": "4.4.3",
    "dedent": "1.7.2",
    "reflect-metadata": "0.2.2",
    "sql-highlight": "6.1.0",
    "tinyglobby": "0.2.17",
    "tslib": "2.9.1",
    "yargs": "18.2.0"
  }
}
EOF
    (cd "$dest" && npm install --ignore-scripts --legacy-peer-deps --no-audit --no-fund \
        --loglevel=error >&2)
    stamp "$dest" "github typeorm/typeorm@$TYPEORM_COMMIT"
}

install_oracle_deps() {
    [[ -d "$BENCH/node_modules/typescript" ]] && return 0
    log "installing bench/package.json (typescript@5 for the compiler oracle)"
    (cd "$BENCH" && npm install --no-audit --no-fund --loglevel=error >&2)
}

main() {
    install_oracle_deps
    # rxjs's root tsconfig.json (no "include": all of src/) is the one its editors use.
    fetch_npm rxjs@7.8.1 "$DATA/ts-classes/rxjs" src tsconfig.json
    fetch_npm effect@4.1.0 "$DATA/ts-speed/effect" src
    fetch_sdist rich 13.9.4 "$DATA/py-acc/rich" rich
    fetch_sdist Django 5.1.4 "$DATA/py-speed/django" django tests
    fetch_sdist pydantic 2.10.4 "$DATA/py-incr/pydantic" pydantic
    fetch_nestjs_graphql
    fetch_typeorm

    echo "corpora in $DATA:"
    local d
    for d in ts-di/nestjs-graphql ts-classes/rxjs ts-speed/effect ts-speed/typeorm; do
        [[ -d "$DATA/$d" ]] && count_lines "$DATA/$d" ts tsx
    done
    for d in py-acc/rich py-speed/django; do
        [[ -d "$DATA/$d" ]] && count_lines "$DATA/$d" py
    done
    # The broad accuracy corpora (12 repositories, tune/held-out) and the large speed ones.
    DATA=$DATA DL=$DL bash "$BENCH/get_acc_data.sh"
    # The Go corpora (accuracy halves and the speed corpus), from *_SRC checkouts.
    bash "$BENCH/get_go_data.sh"
}

main "$@"
