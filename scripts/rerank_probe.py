"""Rerank astrag's search list on the natural questions (dev-only probe, docs/BENCHMARKS.md §7,
"a cross-encoder reranker — a probe").

For each question, ``Index.search``'s first 20 hits (the list ``bench/questions/run.py``
scores as ``search`` is its first 10) are re-ordered and the first 10 scored exactly as
``run.py`` scores them:

* ``search``: ``Index.search(limit=10)`` untouched (must give run.py's figures);
* ``search20``: the first 10 of the 20 the others re-order (a longer list's candidate pools
  place a few hits differently);
* ``ceiling``: the best any reranker of the 20 can do (greedy, see ``best_order``);
* ``bi``: by the MiniLM bi-encoder's cosine between the question and the hit's text (a
  zero-training baseline);
* ``ce``: by the fine-tuned cross-encoder (``scripts/train_rerank.py``) alone;
* ``ce-rrf``: reciprocal-rank fusion of astrag's rank and the cross-encoder's,
  ``1/(k + rank)`` each with ``k = --rrf-k``;
* ``bi-rrf``: the same fusion with the bi-encoder's rank;
* ``ce-rrf60``: ``ce-rrf`` with the usual ``k = 60`` (the two ranks weigh nearly alike).

A hit's text is what astrag embeds for it (``search/documents.py``: kind, qualified name, path,
signature, docstring, body words), rebuilt from the file, plus its first ``--lines`` source
lines. Run with the astrag to probe on ``PYTHONPATH`` and on indexed copies of the trees::

    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 python scripts/rerank_probe.py --data /tmp/rr28/d \\
        --ce /tmp/rr28/ce --bi /path/to/all-MiniLM-L6-v2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from questions.data import load_questions, load_repos, select
from questions.metrics import K, Span, gains, mean, score
from questions.run import labels_of
from questions.systems import span_of

DEPTH = 20


class Texts:
    """A hit's text: its search document's embedded text and its first source lines."""

    def __init__(self, root: Path, lines: int) -> None:
        self.root = root
        self.lines = lines
        self._docs: dict[str, dict[str, str]] = {}
        self._src: dict[str, list[str]] = {}

    def __call__(self, symbol: Any) -> str:
        from astrag.lang import extract_facts
        from astrag.search.documents import documents

        path = symbol.path
        if path not in self._docs:
            source = (self.root / path).read_bytes()
            try:
                docs = documents(extract_facts(path, source), source)
            except Exception:  # a file astrag indexed but cannot re-read here: lines only
                docs = []
            self._docs[path] = {d.id: d.text for d in docs}
            self._src[path] = source.decode("utf-8", "replace").splitlines()
        first = symbol.start_line - 1
        head = "\n".join(self._src[path][first : first + self.lines])
        return f"{self._docs[path].get(symbol.id, '')}\n{head}"


def best_order(spans: list[Span], labels: dict[str, tuple[Span, int]]) -> list[int]:
    """The ceiling of any reranker of these hits: greedily, the hit whose place gains most
    next (``metrics.gains``' crediting, one answer a result)."""
    order: list[int] = []
    left = list(range(len(spans)))
    while left:
        pick = max(left, key=lambda i: gains([spans[j] for j in [*order, i]], labels)[-1])
        order.append(pick)
        left.remove(pick)
    return order


def rrf(first: list[int], second: list[int], k: float) -> list[int]:
    """Indices ordered by ``1/(k+rank)`` summed over two orders (ties: the first order)."""
    fused = {i: 1.0 / (k + r) for r, i in enumerate(first)}
    for r, i in enumerate(second):
        fused[i] += 1.0 / (k + r)
    return sorted(first, key=lambda i: -fused[i])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", type=Path, required=True)
    ap.add_argument("--ce", type=Path, required=True, help="train_rerank.py's output")
    ap.add_argument("--bi", type=Path, required=True, help="all-MiniLM-L6-v2 directory")
    ap.add_argument("--lines", type=int, default=6)
    ap.add_argument("--max-length", type=int, default=256)
    ap.add_argument("--rrf-k", type=float, default=10.0)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    import torch
    from sentence_transformers import SentenceTransformer
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from astrag import api

    torch.set_num_threads(args.threads)
    tok = AutoTokenizer.from_pretrained(str(args.ce))
    ce = AutoModelForSequenceClassification.from_pretrained(str(args.ce)).eval()
    bi = SentenceTransformer(str(args.bi), device="cpu")
    systems = ("search", "search20", "ceiling", "bi", "ce", "bi-rrf", "ce-rrf", "ce-rrf60")
    table: dict[str, dict[str, tuple[float, float]]] = {}
    timing: dict[str, tuple[float, float]] = {}
    for spec in select(load_repos(), [], "tune"):
        root = args.data / spec.name
        questions = load_questions(spec.name)
        texts = Texts(root, args.lines)
        scores: dict[str, list[Any]] = {s: [] for s in systems}
        ce_s, bi_s = [], []
        with api.open_index(root) as idx:
            for q in questions:
                labels = labels_of(idx, q)
                hits = idx.search(q.query, limit=DEPTH)
                docs = [texts(h.symbol) for h in hits]
                base = list(range(len(hits)))
                began = time.perf_counter()
                with torch.inference_mode():
                    enc = tok(
                        [q.query] * len(docs),
                        docs,
                        truncation="only_second",
                        max_length=args.max_length,
                        padding=True,
                        return_tensors="pt",
                    )
                    logit = ce(**enc).logits[:, 0].tolist() if docs else []
                ce_s.append(time.perf_counter() - began)
                began = time.perf_counter()
                vec = bi.encode([q.query, *docs], normalize_embeddings=True, batch_size=32)
                cos = (vec[1:] @ vec[0]).tolist()
                bi_s.append(time.perf_counter() - began)
                by_ce = sorted(base, key=lambda i: -logit[i])
                by_bi = sorted(base, key=lambda i: -cos[i])
                orders = {
                    "search20": base,
                    "ceiling": best_order([span_of(h.symbol) for h in hits], labels),
                    "bi": by_bi,
                    "ce": by_ce,
                    "bi-rrf": rrf(base, by_bi, args.rrf_k),
                    "ce-rrf": rrf(base, by_ce, args.rrf_k),
                    "ce-rrf60": rrf(base, by_ce, 60.0),
                }
                ten = [span_of(h.symbol) for h in idx.search(q.query, limit=K)]
                scores["search"].append(score(ten, labels))
                for name, order in orders.items():
                    items = [span_of(hits[i].symbol) for i in order[:K]]
                    scores[name].append(score(items, labels))
        table[spec.name] = {
            s: (mean([x.precision for x in v]), mean([x.ndcg for x in v]))
            for s, v in scores.items()
        }
        timing[spec.name] = (mean(ce_s), mean(bi_s))
        cells = "  ".join(f"{s}={p:.3f}/{n:.3f}" for s, (p, n) in table[spec.name].items())
        print(f"{spec.name:<11} {cells}", file=sys.stderr, flush=True)
    print("| repo | " + " | ".join(systems) + " | ce s/question | bi s/question |")
    print("| --- |" + " ---: |" * (len(systems) + 2))
    for name, row in table.items():
        cells = [f"{p:.3f} / {n:.3f}" for p, n in row.values()]
        t = timing[name]
        print(f"| {name} | " + " | ".join(cells) + f" | {t[0]:.2f} | {t[1]:.2f} |")
    means = []
    for s in systems:
        p, n = mean([table[r][s][0] for r in table]), mean([table[r][s][1] for r in table])
        means.append(f"**{p:.3f} / {n:.3f}**")
    print("| **tune** | " + " | ".join(means) + " | | |")


if __name__ == "__main__":
    main()
