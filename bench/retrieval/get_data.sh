#!/usr/bin/env bash
# Retrieval benchmark data -> bench/data/retrieval/ (git-ignored). For every repository of
# bench/retrieval/tasks_manifest.json:
#   git/<name>   its history: a link to $MIRRORS/<owner>+<repo>/repo when that bare mirror
#                exists (MIRRORS defaults to /work/.mirror), else a bare clone of the URL;
#   <name>/      the files of the base commit (git archive), which the benchmark indexes; only
#                the entry's "subdir" when it has one (paths stay relative to the repository).
# Idempotent: a checkout with a .stamp naming its base is kept.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="$HERE/../data/retrieval"
MIRRORS=${MIRRORS:-/work/.mirror}
mkdir -p "$DATA/git"

python3 - "$HERE/tasks_manifest.json" <<'PY' |
import json, sys
for repo in json.load(open(sys.argv[1]))["repos"]:
    print(repo["name"], repo["url"], repo["base"], repo.get("subdir", ""))
PY
while read -r name url base subdir; do
    gdir="$DATA/git/$name"
    if [[ ! -e "$gdir" ]]; then
        slug=${url#https://github.com/}; slug=${slug%.git}
        mirror="$MIRRORS/${slug/\//+}/repo"
        if [[ -f "$mirror/HEAD" ]]; then
            ln -s "$mirror" "$gdir"
        else
            echo "cloning $url (bare, full history)" >&2
            git clone --quiet --bare "$url" "$gdir"
        fi
    fi
    dest="$DATA/$name"
    if [[ -f "$dest/.stamp" && "$(cat "$dest/.stamp")" == "$base" ]]; then
        continue
    fi
    echo "checking out $name @ $base${subdir:+ ($subdir)}" >&2
    rm -rf "$dest"; mkdir -p "$dest"
    git --git-dir="$gdir" archive "$base" ${subdir:+"$subdir"} | tar -x -C "$dest"
    printf '%s\n' "$base" > "$dest/.stamp"
done
