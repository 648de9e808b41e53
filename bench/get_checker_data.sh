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
# The tuned pair (rich, nestjs-graphql) is copied from bench/get_data.sh's corpora.
set -euo pipefail

DATA="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/data"
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
