#!/usr/bin/env bash
# The broad accuracy corpora (bench/data/acc/, 12 repositories in 6 style pairs, split into a
# tune and a held-out half: docs/BENCHMARKS.md section 1) and the large speed corpora
# (bench/data/speed/). Called by get_data.sh; idempotent like it (a directory holding its
# .stamp is left alone). Registry corpora are always fetched; GitHub ones only when their
# *_SRC variable names a bare git dir (or a checkout) holding the pinned commit:
#
#   HONO_SRC        github.com/honojs/hono                @ 28a9c128912de19f3fb28b00ae289c9b93f6f392
#   VENDURE_SRC     github.com/vendure-ecommerce/vendure  @ 1633446f4ee203e5e3fbca628bee952893bffa5b
#   HEADLESSUI_SRC  github.com/tailwindlabs/headlessui    @ eea57cf46fd6767ed1059012f7073b88eb159fba
#   LEXICAL_SRC     github.com/facebook/lexical           @ 5d5102235132888d15789bf76cf214ede2a98d62
#   MEDUSA_SRC      github.com/medusajs/medusa            @ 59e6747800133e091d20c2c167f600981abc5c0d
#   ESLINT_SRC      github.com/eslint/eslint              @ c27bc926e496985eb7911c09eb60914b2e4b5d0f
#   H3_SRC          github.com/unjs/h3                    @ ac609aae8fa93947b564de55e2d1a6bec5ad18ad
#   QUERY_SRC       github.com/TanStack/query             @ 40321a0b1b3bdd0afa11f0e439642ab84cdf6afe
#   UNSTORAGE_SRC   github.com/unjs/unstorage             @ afbb66ec266e0cec613cb087b49f75bf4deaaa41
#   ELYSIA_SRC      github.com/elysiajs/elysia            @ 8358ff9efbcedf9534995f5977f26b9ceab59329
#   KYSELY_SRC      github.com/kysely-org/kysely          @ 478ec67b2de2568f5590a015d3e120644e81bd87
#   SUPERSTRUCT_SRC github.com/ianstormtaylor/superstruct @ e414c8afd3b69f6bc0173b8ee25f71d8e5694f01
#
# e.g. `git clone --bare https://github.com/honojs/hono.git /tmp/hono.git && HONO_SRC=/tmp/hono.git`.
# Each TypeScript corpus gets a flattened tsconfig.json (upstream's options, one file, only the
# corpus's own sources) and an npm install of the type declarations its imports need, so the
# compiler oracle sees dependencies as external instead of unresolved.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA=${DATA:-"$BENCH/data"}
DL=${DL:-"$DATA/.downloads"}
mkdir -p "$DL" "$DATA/acc" "$DATA/speed"
# shellcheck source=get_data_lib.sh
source "$BENCH/get_data_lib.sh"

HONO_COMMIT=28a9c128912de19f3fb28b00ae289c9b93f6f392
VENDURE_COMMIT=1633446f4ee203e5e3fbca628bee952893bffa5b
HEADLESSUI_COMMIT=eea57cf46fd6767ed1059012f7073b88eb159fba
LEXICAL_COMMIT=5d5102235132888d15789bf76cf214ede2a98d62
MEDUSA_COMMIT=59e6747800133e091d20c2c167f600981abc5c0d
ESLINT_COMMIT=c27bc926e496985eb7911c09eb60914b2e4b5d0f
H3_COMMIT=ac609aae8fa93947b564de55e2d1a6bec5ad18ad
QUERY_COMMIT=40321a0b1b3bdd0afa11f0e439642ab84cdf6afe
UNSTORAGE_COMMIT=afbb66ec266e0cec613cb087b49f75bf4deaaa41
ELYSIA_COMMIT=8358ff9efbcedf9534995f5977f26b9ceab59329
KYSELY_COMMIT=478ec67b2de2568f5590a015d3e120644e81bd87
SUPERSTRUCT_COMMIT=e414c8afd3b69f6bc0173b8ee25f71d8e5694f01

# --- TypeScript / JavaScript -----------------------------------------------------------------

# Functional, middleware-style framework: closures returned by factories, `c.req.x()` chains.
fetch_hono() {
    local dest=$DATA/acc/hono
    done_already "$dest" && return 0
    export_github_paths HONO_SRC honojs/hono "$HONO_COMMIT" "$dest" src || return 0
    prune "$dest" '*.test.ts' '*.test.tsx'
    # tsconfig.base.json + tsconfig.build.json, flattened (the root one is a solution file
    # whose references point at runtime tests outside src/).
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ES2020",
    "moduleResolution": "Bundler",
    "esModuleInterop": true,
    "strict": true,
    "skipLibCheck": true,
    "noEmit": true,
    "types": ["node"]
  },
  "include": ["src/**/*.ts", "src/**/*.mts", "src/**/*.tsx"]
}
EOF
    printf '%s\n' '{"name": "hono-bench-corpus", "private": true,' \
        '"dependencies": {"@types/node": "24.13.3"}}' > "$dest/package.json"
    npm_types "$dest"
    stamp "$dest" "github honojs/hono@$HONO_COMMIT src (no *.test.ts)"
}

# Dependency-injected NestJS services: packages/core plus the @vendure/common it imports,
# mapped by `paths` the way upstream's workspace links it.
fetch_vendure() {
    local dest=$DATA/acc/vendure
    done_already "$dest" && return 0
    export_github_paths VENDURE_SRC vendure-ecommerce/vendure "$VENDURE_COMMIT" "$dest" \
        packages/core/src packages/common/src || return 0
    prune "$dest" '*.spec.ts' '*/e2e/*'
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2021",
    "module": "commonjs",
    "moduleResolution": "node",
    "lib": ["ES2021", "esnext.asynciterable"],
    "strict": true,
    "strictPropertyInitialization": false,
    "experimentalDecorators": true,
    "emitDecoratorMetadata": true,
    "esModuleInterop": true,
    "skipLibCheck": true,
    "noEmit": true,
    "baseUrl": ".",
    "paths": {"@vendure/common/lib/*": ["packages/common/src/*"]},
    "types": ["node"]
  },
  "include": ["packages/core/src/**/*.ts", "packages/common/src/**/*.ts"]
}
EOF
    cat > "$dest/package.json" <<'EOF'
{
  "name": "vendure-bench-corpus",
  "private": true,
  "dependencies": {
    "@nestjs/common": "11.1.6",
    "@nestjs/core": "11.1.6",
    "@nestjs/graphql": "13.1.0",
    "@nestjs/typeorm": "11.0.0",
    "@types/express": "5.0.3",
    "@types/node": "24.13.3",
    "graphql": "16.11.0",
    "reflect-metadata": "0.2.2",
    "rxjs": "7.8.2",
    "typeorm": "0.3.27"
  }
}
EOF
    npm_types "$dest"
    stamp "$dest" "github vendure-ecommerce/vendure@$VENDURE_COMMIT packages/{core,common}/src (no specs)"
}

# React components and hooks (TSX).
fetch_headlessui() {
    local dest=$DATA/acc/headlessui
    done_already "$dest" && return 0
    export_github_paths HEADLESSUI_SRC tailwindlabs/headlessui "$HEADLESSUI_COMMIT" "$dest" \
        packages/@headlessui-react/src || return 0
    mv "$dest/packages/@headlessui-react/src" "$dest/src"
    rm -rf "$dest/packages"
    prune "$dest" '*.test.ts' '*.test.tsx' '*/test-utils/*' '*/__snapshots__/*'
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "module": "esnext",
    "lib": ["dom", "esnext", "dom.iterable"],
    "strict": true,
    "downlevelIteration": true,
    "moduleResolution": "node",
    "jsx": "react",
    "esModuleInterop": true,
    "target": "ESNext",
    "allowJs": true,
    "skipLibCheck": true,
    "resolveJsonModule": true,
    "noEmit": true
  },
  "include": ["src"]
}
EOF
    cat > "$dest/package.json" <<'EOF'
{
  "name": "headlessui-bench-corpus",
  "private": true,
  "dependencies": {
    "@floating-ui/react": "0.26.28",
    "@react-aria/focus": "3.21.1",
    "@react-aria/interactions": "3.25.5",
    "@tanstack/react-virtual": "3.13.12",
    "@types/react": "18.3.24",
    "@types/react-dom": "18.3.7",
    "@types/use-sync-external-store": "1.5.0",
    "react": "18.3.1",
    "react-dom": "18.3.1",
    "use-sync-external-store": "1.5.0"
  }
}
EOF
    npm_types "$dest"
    stamp "$dest" "github tailwindlabs/headlessui@$HEADLESSUI_COMMIT packages/@headlessui-react/src (no tests)"
}

# CommonJS JavaScript: `res.json = function json() { this.send() }`, prototypes,
# module.exports. The 4.x line still has its router inside lib/. Scored with allowJs/checkJs.
fetch_express() {
    local dest=$DATA/acc/express
    done_already "$dest" && return 0
    fetch_npm express@4.21.2 "$dest" lib index.js
    rm -f "$dest/.stamp"
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2020",
    "module": "commonjs",
    "moduleResolution": "node",
    "allowJs": true,
    "checkJs": true,
    "noEmit": true,
    "skipLibCheck": true,
    "types": ["node"]
  },
  "include": ["index.js", "lib/**/*.js"]
}
EOF
    printf '%s\n' '{"name": "express-bench-corpus", "private": true,' \
        '"dependencies": {"@types/node": "24.13.3"}}' > "$dest/package.json"
    npm_types "$dest"
    stamp "$dest" "npm express@4.21.2 lib/ index.js"
}

# Workspace monorepo: 30-odd packages that import each other by name through tsconfig
# `paths` (upstream's root tsconfig, kept whole). Library packages only: the playground app,
# the website and the devtools extension are left out.
fetch_lexical() {
    local dest=$DATA/acc/lexical
    done_already "$dest" && return 0
    export_github_paths LEXICAL_SRC facebook/lexical "$LEXICAL_COMMIT" "$dest" \
        packages tsconfig.json || return 0
    rm -rf "$dest"/packages/lexical-{playground,website,devtools}
    # Keep each package's src/ (and package.json); tests, flow types, docs and scripts go.
    find "$dest/packages" -mindepth 2 -maxdepth 2 ! -name src ! -name package.json \
        -exec rm -rf {} +
    prune "$dest" '*/__tests__/*' '*.test.ts' '*.test.tsx'
    # Upstream's include also lists the tests, scripts and the playground; only packages stay.
    python3 - "$dest/tsconfig.json" <<'EOF'
import json, sys
path = sys.argv[1]
cfg = json.load(open(path))
cfg["include"] = ["packages/*/src/**/*"]
cfg.pop("exclude", None)
cfg["compilerOptions"].pop("typeRoots", None)
json.dump(cfg, open(path, "w"), indent=2)
EOF
    cat > "$dest/package.json" <<'EOF'
{
  "name": "lexical-bench-corpus",
  "private": true,
  "dependencies": {
    "@types/node": "24.13.3",
    "@types/prismjs": "1.26.5",
    "@types/react": "19.1.13",
    "@types/react-dom": "19.1.9",
    "prismjs": "1.30.0",
    "react": "19.1.1",
    "react-dom": "19.1.1",
    "yjs": "13.6.27"
  }
}
EOF
    npm_types "$dest"
    stamp "$dest" "github facebook/lexical@$LEXICAL_COMMIT packages/*/src (libraries, no tests)"
}

# Generic-heavy library (schemas typed through conditional and mapped types).
fetch_zod() {
    local dest=$DATA/acc/zod
    done_already "$dest" && return 0
    fetch_npm zod@4.1.12 "$dest" src
    rm -f "$dest/.stamp"
    prune "$dest" '*/tests/*' '*.test.ts' '*/benchmarks/*'
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "lib": ["ES2022", "DOM"],
    "strict": true,
    "skipLibCheck": true,
    "noEmit": true,
    "types": []
  },
  "include": ["src"]
}
EOF
    stamp "$dest" "npm zod@4.1.12 src (no tests, no benchmarks)"
}

# Two held-out corpora added at issue 12's last stop, before astrag was run on them, so that
# one held-out scoring stays blind (docs/BENCHMARKS.md section 1): a second functional
# middleware framework and a generic-heavy class library.

# Functional HTTP framework: event handlers, middleware, composable utilities (h3 v2 beta).
fetch_h3() {
    local dest=$DATA/acc/h3
    done_already "$dest" && return 0
    export_github_paths H3_SRC unjs/h3 "$H3_COMMIT" "$dest" src || return 0
    # upstream's root tsconfig.json, flattened to the sources (it also covers tests, examples)
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ESNext",
    "module": "preserve",
    "moduleResolution": "bundler",
    "moduleDetection": "force",
    "esModuleInterop": true,
    "allowSyntheticDefaultImports": true,
    "resolveJsonModule": true,
    "strict": true,
    "isolatedModules": true,
    "verbatimModuleSyntax": true,
    "noImplicitOverride": true,
    "noEmit": true,
    "skipLibCheck": true,
    "lib": ["ESNext", "WebWorker", "DOM", "DOM.Iterable"],
    "types": ["node"]
  },
  "include": ["src"]
}
EOF
    cat > "$dest/package.json" <<'EOF'
{
  "name": "h3-bench-corpus",
  "private": true,
  "dependencies": {
    "@types/node": "24.13.3",
    "cookie-es": "2.0.0",
    "rou3": "0.6.3",
    "srvx": "0.4.0"
  }
}
EOF
    npm_types "$dest"
    stamp "$dest" "github unjs/h3@$H3_COMMIT src"
}

# Generic-heavy class library: TanStack Query's core (QueryObserver<TQueryFnData, TError,
# TData, ...>, caches, managers, subscribables).
fetch_query_core() {
    local dest=$DATA/acc/query-core
    done_already "$dest" && return 0
    export_github_paths QUERY_SRC TanStack/query "$QUERY_COMMIT" "$dest" \
        packages/query-core/src || return 0
    mv "$dest/packages/query-core/src" "$dest/src"
    rm -rf "$dest/packages"
    prune "$dest" '*/__tests__/*'
    # the root tsconfig.json's checking options (not its composite, declaration-only build)
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "allowSyntheticDefaultImports": true,
    "esModuleInterop": true,
    "isolatedModules": true,
    "lib": ["DOM", "DOM.Iterable", "ES2022"],
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "noImplicitReturns": true,
    "noUncheckedIndexedAccess": true,
    "resolveJsonModule": true,
    "skipLibCheck": true,
    "strict": true,
    "target": "ES2020",
    "noEmit": true,
    "types": []
  },
  "include": ["src"]
}
EOF
    stamp "$dest" "github TanStack/query@$QUERY_COMMIT packages/query-core/src (no __tests__)"
}

# Two more held-out corpora, added at issue 12's second stop before astrag was run on them
# (hono's second scoring is not blind; these are): a library of function factories and a
# fluent, generic-heavy framework class.

# Function factories: every driver is `defineDriver((opts) => { …; return { getItem() {…} } })`,
# the storage `createStorage()` an object literal of closures. Upstream's compiler options
# flattened to src/; its self-imports (`unstorage/drivers/*`, which the package's exports map
# to its build) mapped by `paths` to the sources. Declarations of the drivers' client
# libraries from npm, except the Azure SDKs, mongodb and uploadthing (calls into them stay
# unresolved for the oracle, so they are not judged).
fetch_unstorage() {
    local dest=$DATA/acc/unstorage
    done_already "$dest" && return 0
    export_github_paths UNSTORAGE_SRC unjs/unstorage "$UNSTORAGE_COMMIT" "$dest" src || return 0
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ESNext",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "moduleDetection": "force",
    "esModuleInterop": true,
    "allowSyntheticDefaultImports": true,
    "resolveJsonModule": true,
    "strict": true,
    "verbatimModuleSyntax": true,
    "noUncheckedIndexedAccess": true,
    "noImplicitAny": false,
    "noImplicitOverride": true,
    "noEmit": true,
    "skipLibCheck": true,
    "allowImportingTsExtensions": true,
    "types": ["node", "deno"],
    "baseUrl": ".",
    "paths": {
      "unstorage": ["src/index.ts"],
      "unstorage/drivers/*": ["src/drivers/*.ts"]
    }
  },
  "include": ["src"]
}
EOF
    cat > "$dest/package.json" <<'EOF'
{
  "name": "unstorage-bench-corpus",
  "private": true,
  "type": "module",
  "dependencies": {
    "@capacitor/preferences": "8.0.1",
    "@cloudflare/workers-types": "5.20261117.1",
    "@deno/kv": "0.14.0",
    "@netlify/blobs": "11.1.1",
    "@planetscale/database": "1.20.2",
    "@types/deno": "2.7.0",
    "@types/node": "24.13.3",
    "@upstash/redis": "1.39.0",
    "@vercel/blob": "2.8.0",
    "@vercel/functions": "3.11.2",
    "aws4fetch": "1.0.20",
    "chokidar": "5.0.0",
    "db0": "0.3.4",
    "destr": "2.0.5",
    "idb-keyval": "6.3.0",
    "ioredis": "6.1.0",
    "lru-cache": "11.5.4"
  }
}
EOF
    npm_types "$dest"
    stamp "$dest" "github unjs/unstorage@$UNSTORAGE_COMMIT src"
}

# A fluent framework class with generic-heavy signatures (`new Elysia().get(…).use(…)`), its
# handler compiler, adapters and type system. Upstream's compiler options, only src/.
fetch_elysia() {
    local dest=$DATA/acc/elysia
    done_already "$dest" && return 0
    export_github_paths ELYSIA_SRC elysiajs/elysia "$ELYSIA_COMMIT" "$dest" src || return 0
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "resolveJsonModule": true,
    "target": "ES2021",
    "lib": ["ESNext"],
    "module": "ESNext",
    "moduleResolution": "bundler",
    "noEmit": true,
    "allowSyntheticDefaultImports": true,
    "esModuleInterop": true,
    "forceConsistentCasingInFileNames": true,
    "strict": true,
    "skipLibCheck": true
  },
  "include": ["src"]
}
EOF
    cat > "$dest/package.json" <<'EOF'
{
  "name": "elysia-bench-corpus",
  "private": true,
  "dependencies": {
    "@sinclair/typebox": "0.34.9",
    "@types/bun": "1.4.5",
    "@types/fast-decode-uri-component": "1.0.0",
    "cookie": "1.1.0",
    "exact-mirror": "0.2.7",
    "fast-decode-uri-component": "1.0.1",
    "file-type": "20.5.0",
    "memoirist": "0.4.0",
    "openapi-types": "12.1.3"
  }
}
EOF
    npm_types "$dest"
    stamp "$dest" "github elysiajs/elysia@$ELYSIA_COMMIT src"
}

# Two more held-out corpora, added at issue 12's third stop before astrag was run on them
# (elysia was scored at the second stop, so it is seen now): an SQL query builder whose
# builders are classes with fluent, immutable methods and whose operation nodes are object
# literals made by `freeze({...})`, typed through intersections; and a typed async Python
# library (below, with the Python corpora).

# SQL query builder: `db.selectFrom('person').where(...).select(...)`, each builder a class
# over a frozen props object, operation nodes `export const SelectQueryNode = freeze({ is(),
# create(), cloneWith…() })`, dialects' drivers, the migrator, plugins. Upstream's
# tsconfig-base.json + tsconfig.json, flattened to src/ (no emit options); it imports nothing
# but node's types (the drivers' client libraries are interfaces of its own).
fetch_kysely() {
    local dest=$DATA/acc/kysely
    done_already "$dest" && return 0
    export_github_paths KYSELY_SRC kysely-org/kysely "$KYSELY_COMMIT" "$dest" src || return 0
    cat > "$dest/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "lib": ["es2023"],
    "moduleResolution": "node16",
    "module": "node16",
    "noImplicitAny": true,
    "skipLibCheck": true,
    "strict": true,
    "target": "es2023",
    "types": ["node"],
    "verbatimModuleSyntax": true,
    "noEmit": true
  },
  "include": ["src"]
}
EOF
    printf '%s\n' '{"name": "kysely-bench-corpus", "private": true, "type": "module",' \
        '"dependencies": {"@types/node": "24.13.3"}}' > "$dest/package.json"
    npm_types "$dest"
    stamp "$dest" "github kysely-org/kysely@$KYSELY_COMMIT src"
}

# Two more held-out corpora, added at issue 12's fourth stop before astrag was run on them
# (kysely, elysia and anyio were scored at the third stop, so they are seen now): a validation
# library written in utility and mapped types, and a Python ORM of classmethods and type[Model]
# (below, with the Python corpora).

# Validation library: `class Struct<T, S>`, structs made by factories (`object()`, `type()`,
# `define()`, `coerce()`), whose types are mapped and conditional types over their schemas
# (`ObjectType<S>`, `Simplify<…>`, `Partial`/`Pick`/`Omit` of schemas). Upstream's tsconfig.json
# without its emit options and the option TypeScript 5 removed; it imports nothing.
fetch_superstruct() {
    local dest=$DATA/acc/superstruct
    done_already "$dest" && return 0
    export_github_paths SUPERSTRUCT_SRC ianstormtaylor/superstruct "$SUPERSTRUCT_COMMIT" \
        "$dest" src || return 0
    cat > "$dest/tsconfig.json" <<'EOF2'
{
  "compilerOptions": {
    "allowSyntheticDefaultImports": true,
    "esModuleInterop": true,
    "lib": ["esnext"],
    "module": "esnext",
    "moduleResolution": "node",
    "strict": true,
    "target": "es2020",
    "types": [],
    "noEmit": true
  },
  "include": ["src"]
}
EOF2
    printf '%s\n' '{"name": "superstruct-bench-corpus", "private": true, "type": "module"}' \
        > "$dest/package.json"
    stamp "$dest" "github ianstormtaylor/superstruct@$SUPERSTRUCT_COMMIT src"
}

# --- Python -----------------------------------------------------------------------------------

fetch_python_corpora() {
    fetch_sdist httpx 0.28.1 "$DATA/acc/httpx" httpx              # typed library
    fetch_sdist requests 2.32.3 "$DATA/acc/requests" src/requests  # dynamic, untyped
    fetch_sdist starlette 0.46.2 "$DATA/acc/starlette" starlette   # web framework
    fetch_sdist click 8.1.8 "$DATA/acc/click" src/click            # CLI
    fetch_sdist pytest 8.3.5 "$DATA/acc/pytest" src/_pytest src/pytest  # plugin hooks
    if ! done_already "$DATA/acc/networkx"; then                   # scientific package
        fetch_sdist networkx 3.4.2 "$DATA/acc/networkx" networkx
        rm -f "$DATA/acc/networkx/.stamp"
        prune "$DATA/acc/networkx" '*/tests/*'
        stamp "$DATA/acc/networkx" "pypi networkx==3.4.2 networkx/ (no tests/ dirs)"
    fi
    # typed async library (issue 12's third stop, fresh): ABC interfaces, Generic[T] streams,
    # TypeVar / ParamSpec / TypeVarTuple signatures, Protocols; the asyncio and trio backends
    fetch_sdist anyio 4.16.0 "$DATA/acc/anyio" src/anyio
    # ORM (issue 12's fourth stop, fresh): Model classmethods (`create`, `filter`, `get`)
    # typed `type[Self]`, querysets generic over `type[Model]`, fields, backends, expressions
    fetch_sdist tortoise-orm 1.1.9 "$DATA/acc/tortoise" tortoise
}

# --- Large speed corpora (>= 300k lines) -----------------------------------------------------

# TypeScript workspace monorepo: yarn workspaces, ~100 tsconfigs (paths, references).
fetch_medusa() {
    local dest=$DATA/speed/medusa
    done_already "$dest" && return 0
    export_github_paths MEDUSA_SRC medusajs/medusa "$MEDUSA_COMMIT" "$dest" \
        packages integration-tests _tsconfig.base.json package.json || return 0
    stamp "$dest" "github medusajs/medusa@$MEDUSA_COMMIT packages/ integration-tests/"
}

# Large JavaScript: ESLint's lib/ and tests/ (rule tests are most of its lines).
fetch_eslint() {
    local dest=$DATA/speed/eslint
    done_already "$dest" && return 0
    export_github_paths ESLINT_SRC eslint/eslint "$ESLINT_COMMIT" "$dest" \
        lib bin conf tests tools messages packages package.json || return 0
    stamp "$dest" "github eslint/eslint@$ESLINT_COMMIT lib bin conf tests tools messages packages"
}

main() {
    fetch_hono
    fetch_vendure
    fetch_headlessui
    fetch_express
    fetch_lexical
    fetch_zod
    fetch_h3
    fetch_query_core
    fetch_unstorage
    fetch_elysia
    fetch_kysely
    fetch_superstruct
    fetch_python_corpora
    fetch_sdist sympy 1.13.3 "$DATA/speed/sympy" sympy  # >= 700k lines of Python
    fetch_medusa
    fetch_eslint

    echo "accuracy and speed corpora in $DATA:"
    local d
    for d in acc/hono acc/vendure acc/headlessui acc/lexical acc/zod acc/h3 acc/query-core \
        acc/unstorage acc/elysia acc/kysely acc/superstruct \
        speed/medusa; do
        [[ -d "$DATA/$d" ]] && count_lines "$DATA/$d" ts tsx
    done
    for d in acc/express speed/eslint; do
        [[ -d "$DATA/$d" ]] && count_lines "$DATA/$d" js mjs cjs
    done
    for d in acc/httpx acc/requests acc/starlette acc/click acc/pytest acc/networkx acc/anyio \
        acc/tortoise speed/sympy; do
        [[ -d "$DATA/$d" ]] && count_lines "$DATA/$d" py
    done
}

main "$@"
