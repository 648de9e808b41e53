"""astrag on real TypeScript: the sources of the npm package rxjs@7.8.1 (installed by
get_npm_fixture.sh), with resolution-rate floors and edges checked by reading rxjs's source."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from astrag import api

pytestmark = pytest.mark.integration

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / ".npm" / "node_modules" / "rxjs"
VERSION = "7.8.1"  # pinned in get_npm_fixture.sh

# Measured on rxjs 7.8.1: call_resolution_rate 0.6104 (resolved 1036 + external 81 of 1830
# calls), in-repo share 0.5661. Floors sit a little below.
MIN_CALL_RESOLUTION_RATE = 0.60
MIN_IN_REPO_CALL_SHARE = 0.55

INTERNAL = "src/internal/"
# (source, kind, target), each checked in src/internal/<file>.ts by hand:
EDGES = [
    # Subject.next: `errorContext(() => { this._throwIfClosed(); ... })` — errorContext imported
    # from './util/errorContext'; the this-call sits inside the arrow function
    (
        INTERNAL + "Subject.ts::Subject.next",
        "calls",
        INTERNAL + "util/errorContext.ts::errorContext",
    ),
    (
        INTERNAL + "Subject.ts::Subject.next",
        "calls",
        INTERNAL + "Subject.ts::Subject._throwIfClosed",
    ),
    # BehaviorSubject.getValue: `this._throwIfClosed();`, a method inherited from Subject
    (
        INTERNAL + "BehaviorSubject.ts::BehaviorSubject.getValue",
        "calls",
        INTERNAL + "Subject.ts::Subject._throwIfClosed",
    ),
    # BehaviorSubject.next: `super.next((this._value = value));`
    (
        INTERNAL + "BehaviorSubject.ts::BehaviorSubject.next",
        "calls",
        INTERNAL + "Subject.ts::Subject.next",
    ),
    # Subject.lift: `new AnonymousSubject(this, this)`, whose class declares a constructor
    (
        INTERNAL + "Subject.ts::Subject.lift",
        "calls",
        INTERNAL + "Subject.ts::AnonymousSubject.constructor",
    ),
    # Observable.pipe: `return pipeFromArray(operations)(this);`, imported from './util/pipe'
    (
        INTERNAL + "Observable.ts::Observable.pipe",
        "calls",
        INTERNAL + "util/pipe.ts::pipeFromArray",
    ),
    # `export class BehaviorSubject<T> extends Subject<T>`
    (
        INTERNAL + "BehaviorSubject.ts::BehaviorSubject",
        "inherits",
        INTERNAL + "Subject.ts::Subject",
    ),
    # `export class Subscriber<T> extends Subscription implements Observer<T>`
    (
        INTERNAL + "Subscriber.ts::Subscriber",
        "inherits",
        INTERNAL + "Subscription.ts::Subscription",
    ),
    (INTERNAL + "Subscriber.ts::Subscriber", "implements", INTERNAL + "types.ts::Observer"),
    # Subscriber.unsubscribe overrides Subscription.unsubscribe (and calls it through super)
    (
        INTERNAL + "Subscriber.ts::Subscriber.unsubscribe",
        "overrides",
        INTERNAL + "Subscription.ts::Subscription.unsubscribe",
    ),
    (
        INTERNAL + "BehaviorSubject.ts::BehaviorSubject.next",
        "overrides",
        INTERNAL + "Subject.ts::Subject.next",
    ),
    # src/index.ts: `export * from './internal/types';` and
    # `export { Subject } from './internal/Subject';`
    ("src/index.ts", "imports", INTERNAL + "types.ts"),
    ("src/index.ts", "imports", INTERNAL + "Subject.ts::Subject"),
]


@pytest.fixture(scope="module")
def rxjs_index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, api.IndexSummary]:
    if not (PACKAGE / "src" / "index.ts").is_file():
        if shutil.which("npm") is None:
            pytest.skip("rxjs fixture missing and npm is not installed")
        subprocess.run(["bash", str(HERE / "get_npm_fixture.sh")], check=True, timeout=300)
    version = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))["version"]
    assert version == VERSION
    root = tmp_path_factory.mktemp("real_typescript")
    shutil.copytree(PACKAGE / "src", root / "src")
    # the package's tsconfig maps `rxjs/internal/*` etc. onto src/ (baseUrl ".")
    if (PACKAGE / "tsconfig.json").is_file():
        shutil.copy2(PACKAGE / "tsconfig.json", root / "tsconfig.json")
    return root, api.index(root)


def test_every_file_is_indexed_without_parse_errors(
    rxjs_index: tuple[Path, api.IndexSummary],
) -> None:
    root, summary = rxjs_index
    sources = [p for p in (root / "src").rglob("*") if p.suffix in (".ts", ".js")]
    assert len(sources) > 200  # really the package, not a stub
    assert summary.files == len(sources)
    assert [(k.path, k.reason) for k in summary.skipped] == []
    assert (summary.parse_errors, summary.files_with_errors) == (0, 0)


def test_call_resolution_rates(rxjs_index: tuple[Path, api.IndexSummary]) -> None:
    _, summary = rxjs_index
    total = sum(summary.calls.values())
    in_repo = summary.calls.get("resolved", 0) / total
    print(f"rxjs {VERSION}: rate {summary.call_resolution_rate:.4f}, in-repo {in_repo:.4f}")
    assert summary.call_resolution_rate >= MIN_CALL_RESOLUTION_RATE
    assert in_repo >= MIN_IN_REPO_CALL_SHARE


def test_hand_verified_edges(rxjs_index: tuple[Path, api.IndexSummary]) -> None:
    root, _ = rxjs_index
    with api.open_index(root) as idx:
        _, edges = idx.graph()
    found = {(e.source, str(e.kind), e.target) for e in edges}
    assert [edge for edge in EDGES if edge not in found] == []


def test_implementations_of_subject(rxjs_index: tuple[Path, api.IndexSummary]) -> None:
    root, _ = rxjs_index
    with api.open_index(root) as idx:
        found = {
            (r.depth, r.symbol.id) for r in idx.implementations(INTERNAL + "Subject.ts::Subject")
        }
    # `class ... extends Subject<T>`: grep -rn "extends Subject<" src/ finds these five
    assert {symbol for depth, symbol in found if depth == 1} == {
        INTERNAL + "BehaviorSubject.ts::BehaviorSubject",
        INTERNAL + "ReplaySubject.ts::ReplaySubject",
        INTERNAL + "AsyncSubject.ts::AsyncSubject",
        INTERNAL + "Subject.ts::AnonymousSubject",
        INTERNAL + "testing/HotObservable.ts::HotObservable",
    }


def test_a_call_of_a_call_result_is_one_call_edge(
    rxjs_index: tuple[Path, api.IndexSummary],
) -> None:
    root, _ = rxjs_index
    with api.open_index(root) as idx:
        sites = [
            (e.line, e.column)
            for e in idx.edges(INTERNAL + "Observable.ts::Observable.pipe", incoming=False)
            if e.kind == "calls" and e.target == INTERNAL + "util/pipe.ts::pipeFromArray"
        ]
    # `    return pipeFromArray(operations)(this);` is line 437: pipeFromArray is called once
    assert sites == [(437, 12)]
