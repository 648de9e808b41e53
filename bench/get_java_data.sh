#!/usr/bin/env bash
# The Java corpora: six accuracy corpora in three style pairs, split into a tune and a held-out
# half before anything was measured (docs/BENCHMARKS.md section 1, "Java"), and one speed
# corpus. Idempotent: a directory holding its .stamp is left alone; delete it to refetch.
# Each corpus is fetched only when its *_SRC variable names a bare git dir (or a checkout)
# holding the pinned commit, e.g.
#   git clone --bare https://github.com/jhy/jsoup.git /tmp/jsoup.git && JSOUP_SRC=/tmp/jsoup.git
#
#   corpus dir                     source                         commit                                    paths
#   java-acc/commons-io      tune  apache/commons-io    COMMONS_IO_SRC          d83aeb6f4774aee75d857b29fb6cd89132c9a91b  src/main/java
#   java-acc/commons-lang    held  apache/commons-lang  COMMONS_LANG_SRC        d15939ef46f0bd4144994df8be95cf5a7f91eb52  src/main/java
#   java-acc/gson            tune  google/gson          GSON_SRC                9835b6f90192f79cdf5300c528fc6212455fb6c1  gson/src/main/java
#   java-acc/jsoup           held  jhy/jsoup            JSOUP_SRC               46b620860af930eedc193a705eaf7cea5aec89a6  src/main/java
#   java-acc/algorithms      tune  TheAlgorithms/Java   ALGORITHMS_SRC          9d05db2d14702454a418ff31158905e502df83e0  src/main/java
#   java-acc/commons-collections held apache/commons-collections COMMONS_COLLECTIONS_SRC cf36204c913a268681f9e7786f48383d6a464ed4 src/main/java
#   java-speed/jackson-databind    FasterXML/jackson-databind JACKSON_DATABIND_SRC 3ff375f6cafa9696f43c5ba6f1d607cbd4ea20da  src (main + test)
#   java-checker/joda-time   held  JodaOrg/joda-time    JODA_TIME_SRC           7088d772689b751d3e182833970290d05311bf35  src/main/java
#     (the Java checker's fresh held-out corpus, docs/BENCHMARKS.md section 3; no oracle runs on it)
#
# The paths keep their repository layout (src/main/java/org/...), so astrag has to find the
# source roots from the package declarations itself.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA=${DATA:-"$BENCH/data"}
mkdir -p "$DATA/java-acc" "$DATA/java-speed" "$DATA/java-checker"

log() { printf '%s\n' "$*" >&2; }

# fetch VAR REPO COMMIT DEST PATH...: the paths of REPO at COMMIT into DEST.
fetch() {
    local var=$1 repo=$2 commit=$3 dest=$4; shift 4
    [[ -f "$dest/.stamp" ]] && return 0
    local src=${!var:-}
    if [[ -z "$src" ]]; then
        log "skipping github.com/$repo: set $var to a bare git dir (or checkout) holding $commit"
        return 0
    fi
    log "exporting github.com/$repo $* @ $commit"
    rm -rf "$dest"; mkdir -p "$dest"
    if [[ -f "$src/HEAD" && -d "$src/objects" ]]; then
        git --git-dir="$src" archive "$commit" "$@" | tar -x -C "$dest"
    else
        local p
        for p in "$@"; do mkdir -p "$dest/$(dirname "$p")"; cp -r "$src/$p" "$dest/$p"; done
    fi
    printf 'github %s @ %s: %s\n' "$repo" "$commit" "$*" > "$dest/.stamp"
    local files lines
    files=$(find "$dest" -name '*.java' | wc -l)
    lines=$(find "$dest" -name '*.java' -print0 | xargs -0 cat | wc -l)
    printf '%-34s %6d files %9d lines\n' "${dest#"$DATA"/}" "$files" "$lines"
}

fetch COMMONS_IO_SRC apache/commons-io d83aeb6f4774aee75d857b29fb6cd89132c9a91b \
    "$DATA/java-acc/commons-io" src/main/java
fetch COMMONS_LANG_SRC apache/commons-lang d15939ef46f0bd4144994df8be95cf5a7f91eb52 \
    "$DATA/java-acc/commons-lang" src/main/java
fetch GSON_SRC google/gson 9835b6f90192f79cdf5300c528fc6212455fb6c1 \
    "$DATA/java-acc/gson" gson/src/main/java
fetch JSOUP_SRC jhy/jsoup 46b620860af930eedc193a705eaf7cea5aec89a6 \
    "$DATA/java-acc/jsoup" src/main/java
fetch ALGORITHMS_SRC TheAlgorithms/Java 9d05db2d14702454a418ff31158905e502df83e0 \
    "$DATA/java-acc/algorithms" src/main/java
fetch COMMONS_COLLECTIONS_SRC apache/commons-collections cf36204c913a268681f9e7786f48383d6a464ed4 \
    "$DATA/java-acc/commons-collections" src/main/java
fetch JACKSON_DATABIND_SRC FasterXML/jackson-databind 3ff375f6cafa9696f43c5ba6f1d607cbd4ea20da \
    "$DATA/java-speed/jackson-databind" src
fetch JODA_TIME_SRC JodaOrg/joda-time 7088d772689b751d3e182833970290d05311bf35 \
    "$DATA/java-checker/joda-time" src/main/java
