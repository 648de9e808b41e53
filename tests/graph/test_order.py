"""Resolution does not depend on the order files are resolved in, nor on how many at once
(an incremental run resolves a few files, a clean one all of them: their edges must agree)."""

from __future__ import annotations

from astrag.graph.facts import FileFacts
from astrag.graph.run import _SERIAL_SHARES, resolve_all, shard_ranges, share_ranges
from astrag.lang import extract_facts

DEEP = 45  # star imports deeper than the resolver follows (graph/resolve.py _MAX_DEPTH)


def _facts(files: dict[str, str]) -> dict[str, FileFacts]:
    return {path: extract_facts(path, text.encode()) for path, text in files.items()}


def _calls(facts: dict[str, FileFacts], only: list[str]) -> dict[str, set[str]]:
    resolved, _ = resolve_all(facts, only=only)
    return {p: {e.target for e in r.edges if str(e.kind) == "calls"} for p, r in resolved.items()}


def test_a_lookup_cut_short_by_depth_does_not_poison_later_files() -> None:
    # m0 re-exports m1 re-exports ... m44, which defines X; a.py looks X up from the far end
    # (too deep: unknown), b.py from near X (found). Resolving a.py first used to memoise
    # "X is unknown" in every module on the way, so b.py lost its edge in a clean run only.
    files = {f"pkg/m{i}.py": f"from pkg.m{i + 1} import *\n" for i in range(DEEP - 1)}
    files[f"pkg/m{DEEP - 1}.py"] = "def X():\n    return 1\n"
    files["pkg/__init__.py"] = ""
    files["a.py"] = "from pkg.m0 import X\n\nX()\n"
    files["b.py"] = f"from pkg.m{DEEP - 10} import X\n\nX()\n"
    facts = _facts(files)
    together = _calls(facts, ["a.py", "b.py"])
    alone = _calls(facts, ["b.py"])
    assert alone["b.py"] == {f"pkg/m{DEEP - 1}.py::X"}
    assert together["b.py"] == alone["b.py"]


def test_a_long_single_inheritance_chain_resolves_through_every_level() -> None:
    # the inherited method is found from the far end (the MRO is the whole chain, in order)
    n = 300
    lines = ["class C0:\n    def base(self):\n        return 0\n"]
    lines += [f"class C{i}(C{i - 1}):\n    pass\n" for i in range(1, n)]
    lines.append(f"C{n - 1}().base()\n")
    facts = _facts({"chain.py": "\n\n".join(lines)})
    assert "chain.py::C0.base" in _calls(facts, ["chain.py"])["chain.py"]


def test_shards_are_runs_of_neighbouring_paths_of_about_equal_weight() -> None:
    paths = ["a/1.py", "a/2.py", "a/3.py", "b/1.py", "b/2.py", "c/1.py"]
    weight = dict(zip(paths, (1, 1, 1, 3, 1, 1), strict=True))
    assert shard_ranges(paths, weight, 4) == [
        ["a/1.py", "a/2.py"],
        ["a/3.py", "b/1.py"],
        ["b/2.py"],
        ["c/1.py"],
    ]
    assert shard_ranges(paths, weight, 1) == [paths]


def test_shares_cut_runs_of_the_given_parts_of_the_weight() -> None:
    paths = [f"p{i:02}.py" for i in range(20)]
    weight = dict.fromkeys(paths, 1)
    cut = share_ranges(paths, weight, (2, 1, 1))
    assert [len(run) for run in cut] == [10, 5, 5]
    assert [p for run in cut for p in run] == paths
    # a run in one process ends with small batches: the writer's last one is small
    many = [f"q{i:03}.py" for i in range(100)]
    serial = share_ranges(many, dict.fromkeys(many, 1), _SERIAL_SHARES)
    assert [len(run) for run in serial] == [14, 14, 14, 14, 14, 14, 8, 4, 2, 2]
    assert share_ranges(["only.py"], {"only.py": 9}, (7, 1)) == [["only.py"]]


def test_resolving_in_worker_processes_gives_the_edges_of_one_process() -> None:
    # enough files for the forked workers (graph/run.py), in packages whose modules import
    # each other's classes and a shared base
    files = {"core/base.py": "class Base:\n    def hook(self):\n        return 1\n"}
    for p in range(12):
        for m in range(20):
            files[f"pkg{p}/m{m}.py"] = (
                "from core.base import Base\n"
                f"from pkg{p}.m{(m + 1) % 20} import C{(m + 1) % 20}\n\n"
                f"class C{m}(Base):\n    def run(self):\n        self.hook()\n"
                f"        return C{(m + 1) % 20}().run()\n"
            )
    facts = _facts(files)
    serial, serial_placeholders = resolve_all(facts, jobs=1)
    parallel, parallel_placeholders = resolve_all(facts, jobs=2)
    assert list(parallel) == list(serial)
    for path, r in serial.items():
        assert parallel[path].edges == r.edges, path
        assert parallel[path].depends_on == r.depends_on, path
    assert parallel_placeholders == serial_placeholders
    assert "core/base.py::Base.hook" in {e.target for e in serial["pkg3/m7.py"].edges}
