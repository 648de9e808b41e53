# Helpers shared by get_data.sh and get_acc_data.sh (sourced, not run). Callers set DATA
# (the corpora root) and DL (the download cache) first.
# shellcheck shell=bash

log() { printf '%s\n' "$*" >&2; }

# Count files and lines of the given extensions under a dir (skips node_modules, .d.ts).
count_lines() {
    local dir=$1; shift
    local expr=() ext
    for ext in "$@"; do expr+=(-o -name "*.$ext"); done
    find "$dir" -path '*/node_modules' -prune -o -type f \( "${expr[@]:1}" \) \
        ! -name '*.d.ts' -print0 |
        xargs -0 cat | wc -l | awk -v d="${dir#"$DATA"/}" -v n="$(
            find "$dir" -path '*/node_modules' -prune -o -type f \( "${expr[@]:1}" \) \
                ! -name '*.d.ts' -print | wc -l)" '{printf "%-28s %6d files %9d lines\n", d, n, $1}'
}

done_already() { [[ -f "$1/.stamp" ]]; }
stamp() { printf '%s\n' "$2" > "$1/.stamp"; }

# npm tarball -> copy selected paths of its package/ into a corpus dir.
fetch_npm() {
    local spec=$1 dest=$2; shift 2
    done_already "$dest" && return 0
    log "fetching npm $spec"
    local tgz
    tgz=$(cd "$DL" && npm pack "$spec" --silent 2>/dev/null | tail -1)
    local tmp; tmp=$(mktemp -d)
    tar -xzf "$DL/$tgz" -C "$tmp"
    rm -rf "$dest"; mkdir -p "$dest"
    local p
    for p in "$@"; do cp -r "$tmp/package/$p" "$dest/"; done
    rm -rf "$tmp"
    stamp "$dest" "npm $spec"
}

# PyPI sdist -> copy selected top-level paths of the sdist into a corpus dir.
fetch_sdist() {
    local name=$1 version=$2 dest=$3; shift 3
    done_already "$dest" && return 0
    log "fetching PyPI sdist $name==$version"
    python3 -m pip download --quiet --no-deps --no-binary :all: "$name==$version" -d "$DL" \
        2>&1 | grep -v 'is ignored' >&2 || true
    local sdist
    sdist=$(find "$DL" -maxdepth 1 \( -iname "${name}-${version}.tar.gz" \
        -o -iname "${name//-/_}-${version}.tar.gz" \) | head -1)  # PEP 625 names: tortoise_orm
    [[ -n "$sdist" ]] || { log "error: sdist for $name==$version not downloaded"; exit 1; }
    local tmp; tmp=$(mktemp -d)
    tar -xzf "$sdist" -C "$tmp"
    rm -rf "$dest"; mkdir -p "$dest"
    local p
    for p in "$@"; do cp -r "$tmp"/*/"$p" "$dest/"; done
    rm -rf "$tmp"
    stamp "$dest" "pypi $name==$version"
}

# Export a GitHub-only source into a fresh tmp dir and print its path (nothing when the env
# var is unset). The var names a checkout of the commit, or a bare git dir that holds it.
export_github() {
    local var=$1 repo=$2 commit=$3 subdir=$4
    local src=${!var:-}
    if [[ -z "$src" ]]; then
        log "skipping github.com/$repo: set $var to a checkout (or bare git dir) of it at"
        log "  $commit"
        return 0
    fi
    log "exporting github.com/$repo ${subdir:-(whole repo)} from $src"
    local tmp; tmp=$(mktemp -d)
    if [[ -f "$src/HEAD" && -d "$src/objects" ]]; then  # bare git dir
        git --git-dir="$src" archive "$commit" ${subdir:+"$subdir"} | tar -x -C "$tmp"
    else
        mkdir -p "$tmp/$subdir"
        cp -r "$src/$subdir/." "$tmp/$subdir/"
    fi
    printf '%s\n' "$tmp/$subdir"
}

# Copy selected paths of a GitHub commit into dest, keeping their repository-relative paths.
# The env var names a bare git dir holding the commit, or a checkout of it. Returns 1 (and
# says how to provide it) when the var is unset, so callers can skip the corpus.
export_github_paths() {
    local var=$1 repo=$2 commit=$3 dest=$4; shift 4
    local src=${!var:-}
    if [[ -z "$src" ]]; then
        log "skipping github.com/$repo: set $var to a checkout (or bare git dir) of it at"
        log "  $commit"
        return 1
    fi
    log "exporting github.com/$repo $* from $src"
    rm -rf "$dest"; mkdir -p "$dest"
    if [[ -f "$src/HEAD" && -d "$src/objects" ]]; then  # bare git dir
        git --git-dir="$src" archive "$commit" "$@" | tar -x -C "$dest"
    else
        local p
        for p in "$@"; do
            mkdir -p "$dest/$(dirname "$p")"
            cp -r "$src/$p" "$dest/$p"
        done
    fi
}

# Delete files under dir whose path matches any of the find -path patterns (tests, fixtures).
prune() {
    local dir=$1; shift
    local p
    for p in "$@"; do find "$dir" -path "$p" -delete; done
    find "$dir" -type d -empty -delete
}

# npm install of the corpus's own package.json: type declarations for the compiler oracle,
# so calls into dependencies count as external rather than unresolved. No install scripts.
npm_types() {
    (cd "$1" && npm install --ignore-scripts --legacy-peer-deps --no-audit --no-fund \
        --loglevel=error >&2)
}
