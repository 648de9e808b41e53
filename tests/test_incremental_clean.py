"""Incremental = clean, as a property: random edit sequences (files added, edited, deleted,
renamed; imports, re-exports and base classes changed) on a small Python + TypeScript
repository, an incremental index run after every edit, and at the end the graph must equal a
from-scratch index of the same tree, edge for edge. bench/incremental_clean.py runs the same on
real repositories."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from astrag import api

PY = ["a", "b", "c", "d", "util", "core"]
TS = ["svc", "repo", "api", "model"]


def graph(repo: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    with api.open_index(repo) as idx:
        symbols, edges = idx.graph()
    return (
        sorted((s.id, s.kind, s.start_line, s.end_line, s.signature) for s in symbols),
        sorted((e.source, e.target, str(e.kind), e.path, e.line, e.column) for e in edges),
    )


def python_module(rng: random.Random, name: str, present: list[str]) -> str:
    others = [m for m in present if m != name] or [name]
    lines = []
    for other in rng.sample(others, min(len(others), rng.randint(0, 3))):
        lines.append(
            rng.choice(
                [
                    f"from pkg.{other} import f_{other}, K_{other}",
                    f"from . import {other}",
                    f"from .{other} import *",
                    f"import pkg.{other}",
                ]
            )
        )
    base = rng.choice(others)
    lines += [
        "",
        f"class K_{name}({'K_' + base if rng.random() < 0.5 else 'object'}):",
        "    def m(self):",
        f"        return f_{base}()",
        "",
        f"def f_{name}():",
    ]
    for other in rng.sample(others, min(2, len(others))):
        lines += [f"    {other}.f_{other}()", f"    pkg.{other}.K_{other}().m()"]
    return "\n".join([*lines, f"    return K_{name}().m()", ""])


def ts_module(rng: random.Random, name: str, present: list[str]) -> str:
    others = [m for m in present if m != name] or [name]
    lines = [
        f"import {{ {o.capitalize()} }} from './{o}';"
        for o in rng.sample(others, min(len(others), rng.randint(0, 2)))
    ]
    base = rng.choice(others).capitalize()
    extends = f" extends {base}" if rng.random() < 0.5 and base in "".join(lines) else ""
    lines += [
        f"export class {name.capitalize()}{extends} {{",
        f"  run(): number {{ return this.step{rng.randint(0, 2)}(); }}",
        "  step0(): number { return 0; }",
        "}",
        f"export const use{name.capitalize()} = () => new {name.capitalize()}().run();",
    ]
    return "\n".join(lines) + "\n"


def write_module(root: Path, rng: random.Random, name: str, py: list[str], ts: list[str]) -> None:
    if name in PY:
        (root / "pkg" / f"{name}.py").write_text(python_module(rng, name, py))
    else:
        (root / "web" / f"{name}.ts").write_text(ts_module(rng, name, ts))


def path_of(root: Path, name: str) -> Path:
    return root / "pkg" / f"{name}.py" if name in PY else root / "web" / f"{name}.ts"


def edit(root: Path, rng: random.Random, py: list[str], ts: list[str]) -> None:
    present = py + ts
    absent = [n for n in PY + TS if n not in present]
    op = rng.choice(["add", "edit", "edit", "delete", "rename", "reexport"])
    if op == "add" and absent:
        name = rng.choice(absent)
        (py if name in PY else ts).append(name)
        write_module(root, rng, name, py, ts)
    elif op == "delete" and len(present) > 2:
        name = rng.choice(present)
        (py if name in PY else ts).remove(name)
        path_of(root, name).unlink()
    elif op == "rename" and absent:
        name = rng.choice(present)
        same = [n for n in absent if (n in PY) == (name in PY)]
        if same:
            new = rng.choice(same)
            group = py if name in PY else ts
            path_of(root, name).rename(path_of(root, new))
            group[group.index(name)] = new
    elif op == "reexport" and py:
        chosen = rng.sample(py, min(2, len(py)))
        (root / "pkg" / "__init__.py").write_text("".join(f"from .{m} import *\n" for m in chosen))
    elif present:
        write_module(root, rng, rng.choice(present), py, ts)


@pytest.mark.parametrize("seed", range(6))
def test_random_edit_sequences_end_at_the_clean_index(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "web").mkdir()
    (root / "pkg" / "__init__.py").write_text("from .a import *\n")
    py, ts = rng.sample(PY, 3), rng.sample(TS, 2)
    for name in py + ts:
        write_module(root, rng, name, py, ts)
    api.index(root, embedder="none", jobs=1)
    for _ in range(10):
        edit(root, rng, py, ts)
        api.index(root, embedder="none", jobs=rng.choice((1, 2)))
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns(".astrag"))
    api.index(clean, embedder="none", jobs=1)
    incremental, scratch = graph(root), graph(clean)
    assert incremental[0] == scratch[0]
    only_incremental = sorted(set(incremental[1]) - set(scratch[1]))
    only_scratch = sorted(set(scratch[1]) - set(incremental[1]))
    assert (only_incremental, only_scratch) == ([], [])
