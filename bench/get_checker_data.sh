#!/usr/bin/env bash
# The corpora of the checker benchmark (bench/checker.py --corpus, bench/checker_history.py),
# into bench/data/checker/. Each comes from a bare (or ordinary) git clone with history, named
# by an environment variable; a corpus whose directory holds its .stamp is left alone.
#
#   MARSHMALLOW_GIT  github.com/marshmallow-code/marshmallow   @ 341b927f..., src/marshmallow
#   MARKDOWN_GIT     github.com/Python-Markdown/markdown       @ bb50627d..., markdown/
#   MOBX_GIT         github.com/mobxjs/mobx                    @ 01211a69..., packages/mobx/src
#   VSCODE_LSP_GIT   github.com/microsoft/vscode-languageserver-node @ 0da5527d...,
#                    jsonrpc/src server/src protocol/src
# The self-check corpora (unmodified code checked whole; every finding is a false alarm), a
# tune half in no other benchmark of the project:
#   ATTRS_GIT        github.com/python-attrs/attrs            @ c1dc5dcb..., src/ tests/
#   BOLTONS_GIT      github.com/mahmoud/boltons               @ 967864f8..., boltons/ tests/
#   KY_GIT           github.com/sindresorhus/ky               @ 3419113b..., source/ test/
#   DATE_FNS_GIT     github.com/date-fns/date-fns             @ dd663983..., src/; its
#                    .astrag.toml leaves src/locale/ out of the index (hundreds of
#                    near-identical locale tables), as a user may: the files stay on disk
# Tune corpora added with the open world of globals (getters that return functions, Mocha
# tests, an extended tsconfig):
#   THEIA_GIT        github.com/eclipse-theia/theia           @ c66a3811..., packages/core/src/common,
#                    the packages/core/shared re-exports it imports, packages/core/package.json,
#                    with packages/core/tsconfig.json and the configs/base.tsconfig.json it extends
#   CATTRS_GIT       github.com/python-attrs/cattrs          @ 82b02c07..., src/ tests/ (Python 3.12
#                    type statements and type parameters)
#   CSS_LS_GIT       github.com/microsoft/vscode-css-languageservice @ de44a021..., src/ (a
#                    bundled .js with its .d.ts, visitors that shadow their parameters)
# The fresh held-out pair, picked before astrag ran on them (docs/BENCHMARKS.md section 3):
#   LOGURU_GIT       github.com/Delgan/loguru                 @ 2a17be73..., loguru/ tests/
#                    without tests/exceptions/ (scripts that fail on purpose, their
#                    tracebacks compared by the tests) and tests/typesafety/ (YAML)
#   JOTAI_GIT        github.com/pmndrs/jotai                  @ 1fae7724..., src/ tests/
#                    tsconfig.json (its paths map `jotai/*` to src/)
# The fourth stop's blind held-out set, picked by style from file lists alone and pinned before
# astrag ran on them (docs/BENCHMARKS.md section 3, "Issue 13's fourth stop"):
#   TINYDB_GIT       github.com/msiemens/tinydb               @ 2283a2b5..., tinydb/ tests/
#                    (typed library: tables, queries, storages and middlewares as classes)
#   HTTPIE_GIT       github.com/httpie/cli                    @ 5b604c37..., httpie/ tests/
#                    (an application: CLI argument parsing, output formatters, plugins)
#   TSYRINGE_GIT     github.com/microsoft/tsyringe            @ e033769d..., src/ test/
#                    tsconfig.json (class-heavy: a DI container, decorators, providers)
#   RADASH_GIT       github.com/sodiray/radash                @ 4cab1900..., src/ tsconfig.json
#                    (functional: plain exported functions over arrays, objects, promises)
# The fifth stop's blind held-out set, picked by style from file lists alone and pinned before
# astrag ran on them (docs/BENCHMARKS.md section 3, "Issue 13's fifth stop"):
#   THEFUCK_GIT      github.com/nvbn/thefuck                  @ c7e7e1d8..., thefuck/ tests/
#                    (an application: ~200 small rule modules behind decorators, Python 2 era)
#   VOLUPTUOUS_GIT   github.com/alecthomas/voluptuous         @ 87825d6d..., voluptuous/
#                    (a library: schema and validator classes, typed, its tests inside)
#   TS_PATTERN_GIT   github.com/gvergnaud/ts-pattern          @ 2ece6ba5..., src/ tests/
#                    tsconfig.json (functional, type-level: pattern builders, jest tests)
#   OCLIF_CORE_GIT   github.com/oclif/core                    @ 2ba8f2f1..., src/ test/
#                    tsconfig.json (class-heavy: a CLI framework, commands, config, parser)
# The sixth stop's blind held-out set, picked by style from file lists alone and pinned before
# astrag ran on them (docs/BENCHMARKS.md section 3, "Issue 13's sixth stop"):
#   DRAMATIQ_GIT     github.com/Bogdanp/dramatiq              @ 848b35f2..., dramatiq/ tests/
#                    (a framework: actors, brokers, middleware classes, partly typed, pytest)
#   FUNCY_GIT        github.com/Suor/funcy                    @ 70fb6e8b..., funcy/ tests/
#                    (functional utilities: decorators, star-import facade, untyped)
#   TRUE_MYTH_GIT    github.com/true-myth/true-myth           @ 9db69042..., src/ test/
#                    tsconfig.json ts/base.tsconfig.json (functional: Maybe, Result, Task,
#                    curried overloads, vitest; its paths map `true-myth/*` to src/)
#   CLIPANION_GIT    github.com/arcanis/clipanion             @ 434b5a6e..., sources/ tests/
#                    tsconfig.json (class-heavy: command classes, option descriptors, a
#                    state-machine parser, jest)
# The seventh stop's blind held-out set, picked by style from file lists alone and pinned before
# astrag ran on them (docs/BENCHMARKS.md section 3, "Issue 13's seventh stop"):
#   CACHETOOLS_GIT   github.com/tkem/cachetools               @ 28d4506f..., src/ tests/
#                    (a class library: caches as MutableMapping subclasses, memoizing decorators)
#   TOOLZ_GIT        github.com/pytoolz/toolz                 @ 568c2b83..., toolz/ (its tests
#                    inside: functional utilities, a curried namespace built at import)
#   NEVERTHROW_GIT   github.com/supermacro/neverthrow         @ 5ef3a018..., src/ tests/
#                    tsconfig.json (functional: Ok/Err classes, a Result union, ResultAsync, jest)
#   TS_COLLECTIONS_GIT github.com/basarat/typescript-collections @ 309bb1b6..., src/
#                    tsconfig.json (class-heavy: generic data structures, its tests in src/test)
# The eighth stop's blind held-out set, picked by style from file lists alone and pinned before
# astrag ran on them (docs/BENCHMARKS.md section 3, "Issue 13's eighth stop"):
#   PARSIMONIOUS_GIT github.com/erikrose/parsimonious         @ 63184bb7..., parsimonious/ (its
#                    tests inside: a PEG parser, expression classes, a visit_<rule> visitor)
#   GLOM_GIT         github.com/mahmoud/glom                  @ c225e2ab..., glom/ (its tests
#                    inside: declarative specs, T/Path objects built by __getattr__, scopes)
#   MARKED_GIT       github.com/markedjs/marked               @ 681373cc..., src/ tsconfig.json
#                    (class-heavy: Lexer, Tokenizer, Parser, Renderer over token unions)
#   YUP_GIT          github.com/jquense/yup                   @ ff31eee8..., src/ test/
#                    tsconfig.json (a fluent schema builder: a generic Schema base and typed
#                    subclasses, chains returning this, vitest)
# The ninth stop's blind held-out set, picked by style from file lists alone and pinned before
# astrag ran on them (docs/BENCHMARKS.md section 3, "Issue 13's ninth stop"):
#   SCHEDULE_GIT     github.com/dbader/schedule               @ 82a43db1..., schedule/
#                    test_schedule.py (a fluent scheduler: every(2).hours.at(...).do(job)
#                    through properties, one module, partly typed, unittest)
#   DOTENV_GIT       github.com/theskumar/python-dotenv       @ bca6644d..., src/ tests/ (a
#                    small I/O library: a regex parser over NamedTuples, a click CLI, pytest)
#   P_QUEUE_GIT      github.com/sindresorhus/p-queue          @ 180ab9e2..., source/ test/
#                    tsconfig.json (an EventEmitter subclass with #private fields, a pluggable
#                    queue class, options objects, ava tests)
#   PM_MODEL_GIT     github.com/ProseMirror/prosemirror-model @ 6264de06..., src/ test/ (an
#                    immutable document tree: Node, Fragment, Mark, Schema, content-expression
#                    automata, DOM parse/serialise, mocha tests, no tsconfig)
# The tenth stop's blind held-out set, picked by style from file lists alone and pinned before
# astrag ran on them (docs/BENCHMARKS.md section 3, "Issue 13's ninth stop, after: blind
# set 10"):
#   CACHECONTROL_GIT github.com/psf/cachecontrol              @ 7f04affb..., cachecontrol/
#                    tests/ (a class library: an HTTP adapter, a cache controller, pluggable
#                    cache backends, typed, pytest)
#   TABULATE_GIT     github.com/astanin/python-tabulate       @ 268615a5..., tabulate/ test/
#                    (one large module of functions, namedtuple formats, a TextWrapper
#                    subclass, a CLI)
#   CAC_GIT          github.com/cacjs/cac                     @ c1711135..., src/ tests/
#                    tsconfig.json (class-heavy: a CLI builder, an EventTarget subclass,
#                    Command and Option classes, vitest)
#   HOOKABLE_GIT     github.com/unjs/hookable                 @ b77477c0..., src/ test/
#                    tsconfig.json (one generic Hookable class over a hooks map, utilities,
#                    vitest)
# The tuned pair (rich, nestjs-graphql) is copied from bench/get_data.sh's corpora.
# DATA (default: bench/data) says where the corpora go.
set -euo pipefail

DATA=${DATA:-"$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/data"}
OUT="$DATA/checker"
mkdir -p "$OUT"

from_git() {  # name env-var commit paths...
    local name=$1 var=$2 commit=$3; shift 3
    local dest="$OUT/$name" git_dir="${!var:-}"
    [[ -f "$dest/.stamp" ]] && return 0
    if [[ -z "$git_dir" ]]; then
        printf 'skipping %s: set %s to a clone of it\n' "$name" "$var" >&2
        return 0
    fi
    [[ -d "$git_dir/.git" ]] && git_dir="$git_dir/.git"
    rm -rf "$dest"; mkdir -p "$dest"
    git --git-dir="$git_dir" archive "$commit" "$@" | tar -x -C "$dest"
    printf 'git %s %s\n' "$commit" "$*" > "$dest/.stamp"
}

from_git marshmallow MARSHMALLOW_GIT 341b927f219205704728c05cd61f04d7e9727523 src/marshmallow
from_git markdown MARKDOWN_GIT bb50627dc07fde6ee5ed7478464062c537ebad2c markdown
from_git mobx MOBX_GIT 01211a698b64ea94de8e5f276ff8235fcf8ddf96 packages/mobx/src
from_git vscode-lsp VSCODE_LSP_GIT 0da5527ddf79ec7b10c953a1b1e6e007c9678326 \
    jsonrpc/src server/src protocol/src
from_git attrs ATTRS_GIT c1dc5dcba16ed827aa6dcad896b41a3afedb4e32 src tests
from_git boltons BOLTONS_GIT 967864f89791509f9eb36b22b4579d36b72a6df2 boltons tests
from_git theia THEIA_GIT c66a38110467826d2eb718fccd88eb2692d28969 packages/core/src/common \
    packages/core/shared packages/core/package.json \
    packages/core/tsconfig.json configs/base.tsconfig.json
from_git cattrs CATTRS_GIT 82b02c07ca535a1ba656b935767d819eac9d383b src tests
from_git css-ls CSS_LS_GIT de44a02185a50f5a5688be44b676d5dcdbc82d38 src
from_git loguru LOGURU_GIT 2a17be730e111cf874d0bf967c4c5da15b7e4670 loguru tests \
    ':(exclude)tests/exceptions' ':(exclude)tests/typesafety'
from_git jotai JOTAI_GIT 1fae77247ae72ab5f2f002dc82a876e61ce26f56 src tests tsconfig.json
from_git tinydb TINYDB_GIT 2283a2b556d5ef361b61bae8ed89c0ce0730d7c8 tinydb tests
from_git httpie HTTPIE_GIT 5b604c37c6c67e18e7c3e9aee6c88a8c22b98345 httpie tests
from_git tsyringe TSYRINGE_GIT e033769d97cfb6cc4a8569e2b50eb32015453302 src test tsconfig.json
from_git radash RADASH_GIT 4cab1900d08e0997abc4f17aec3cbfe18958d766 src tsconfig.json
from_git thefuck THEFUCK_GIT c7e7e1d884d3bb241ea6448f72a989434c2a35ec thefuck tests
from_git voluptuous VOLUPTUOUS_GIT 87825d6dbdab8830fcc6d559ecb3b88bdf68af6d voluptuous
from_git ts-pattern TS_PATTERN_GIT 2ece6ba54edcbc0d4f4fce67becf89143f9d07bc src tests \
    tsconfig.json
from_git oclif-core OCLIF_CORE_GIT 2ba8f2f1ee3c4aa636a8fc27593d779218d9bd76 src test tsconfig.json
from_git dramatiq DRAMATIQ_GIT 848b35f2f960457ff54a72f9edb3af0de754f72f dramatiq tests
from_git funcy FUNCY_GIT 70fb6e8b0d1d2d5a78f2a66e80a98d691366cc85 funcy tests
from_git true-myth TRUE_MYTH_GIT 9db690420634d06ee15ef3b570173936293eefa6 src test \
    tsconfig.json ts/base.tsconfig.json
from_git clipanion CLIPANION_GIT 434b5a6e0063c58b5e2f0a62498a7de0b308308f sources tests \
    tsconfig.json
from_git cachetools CACHETOOLS_GIT 28d4506f2a49d781ffbcecb095fa7aba5bb80aff src tests
from_git toolz TOOLZ_GIT 568c2b8393973cd172a466546c9d95779c452438 toolz
from_git neverthrow NEVERTHROW_GIT 5ef3a018bda74fb960e44b68fc3672635ee8037d src tests tsconfig.json
from_git typescript-collections TS_COLLECTIONS_GIT 309bb1b6955b403b212309531607b8d17df152e5 src \
    tsconfig.json
from_git parsimonious PARSIMONIOUS_GIT 63184bb79770e687cc62ab34d50c86bf383b3533 parsimonious
from_git glom GLOM_GIT c225e2abeb234be7119911b96b4378cc9d8d6478 glom
from_git marked MARKED_GIT 681373ccc058b5dc93c1f63291d755d7d714c2fa src tsconfig.json
from_git yup YUP_GIT ff31eee8a2b10c938bb3a22544d9e33957a8cf01 src test tsconfig.json
from_git schedule SCHEDULE_GIT 82a43db1b938d8fdf60103bd41f329e06c8d3651 schedule test_schedule.py
from_git python-dotenv DOTENV_GIT bca6644d9aedbe287b792b756b3ae3d650cd0d3a src tests
from_git p-queue P_QUEUE_GIT 180ab9e25cd10b6f548767d7176076b50d25e188 source test tsconfig.json
from_git prosemirror-model PM_MODEL_GIT 6264de069d8439131e88f8ba06973551916184e4 src test
from_git cachecontrol CACHECONTROL_GIT 7f04affb7a4686851e79ffcae3efea2df1743135 cachecontrol tests
from_git tabulate TABULATE_GIT 268615a5c27dc40e5c22454c07b44d5c50410da0 tabulate test
from_git cac CAC_GIT c1711135c4680f3f85c39a4e4a4719ea6e372ecc src tests tsconfig.json
from_git hookable HOOKABLE_GIT b77477c027039362ee0ec4f39b8998c4f1b21707 src test tsconfig.json
from_git ky KY_GIT 3419113b48e034fdcf8fa6bd3be3da7b3d0d758f source test
if from_git date-fns DATE_FNS_GIT dd66398305c2b015fba3c1b3d31ccff42ee8d4cf src \
    && [[ -d "$OUT/date-fns/src" && ! -f "$OUT/date-fns/.astrag.toml" ]]; then
    printf '[index]\nexclude = ["src/locale/"]\n' > "$OUT/date-fns/.astrag.toml"
fi

for pair in py-acc/rich ts-di/nestjs-graphql; do
    name=${pair#*/}
    if [[ -d "$DATA/$pair" && ! -f "$OUT/$name/.stamp" ]]; then
        rm -rf "$OUT/$name"; cp -r "$DATA/$pair" "$OUT/$name"
        rm -rf "$OUT/$name/.astrag"
        printf 'copy of %s\n' "$pair" > "$OUT/$name/.stamp"
    fi
done

# The speed corpus of `check --changed`: typeorm's src/ (~120k lines) as a git work tree.
if [[ -d "$DATA/ts-speed/typeorm/src" && ! -f "$OUT/typeorm-src/.stamp" ]]; then
    rm -rf "$OUT/typeorm-src"; mkdir -p "$OUT/typeorm-src"
    cp -r "$DATA/ts-speed/typeorm/src" "$OUT/typeorm-src/"
    git -C "$OUT/typeorm-src" init -q
    git -C "$OUT/typeorm-src" add -A
    git -C "$OUT/typeorm-src" -c user.email=bench@localhost -c user.name=bench commit -qm base
    printf 'copy of ts-speed/typeorm src/\n' > "$OUT/typeorm-src/.stamp"
fi
