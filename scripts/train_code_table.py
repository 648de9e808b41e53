"""Fine-tune the bundled static table on (docstring sentence, code text) pairs (dev-only).

The bundled table (``src/astrag/embed/model``, distilled from all-MiniLM-L6-v2 by
``scripts/distill_embedder.py``) knows English: it puts ``resume`` near ``start`` but not
``deserialize`` near ``load``. This script teaches it how people's words map to code's words,
contrastively, starting from it:

* **Pairs**, mined from code outside every benchmark of astrag: CPython's standard library
  (test packages and site-packages left out) and, with ``--ts-lib``, the TypeScript compiler's
  own ``lib*.d.ts`` files (their JSDoc). Each definition with a docstring gives one pair: the
  docstring's first sentence, and the text astrag embeds for that definition
  (``astrag.search.documents``: kind, qualified name, path, signature, relations, callees,
  body words) **with the docstring taken out**, so the pair cannot be matched by copying.
  A sentence shared by several definitions ("Return self.") says nothing and is dropped.
* **Name masking**: in a share ``--mask`` of the pairs each epoch, the words of the
  definition's own name are removed from the sentence, so the table learns that "remove a
  directory tree" means ``rmtree`` rather than matching ``rmtree`` to ``rmtree``.
* **Model**: a text's vector is what :class:`astrag.embed.static.StaticEmbedder` computes: the
  sum of its wordpiece rows (text prepared and tokenised the same way), L2-normalised. Loss:
  in-batch negatives (MultipleNegativesRanking: cross-entropy over the batch's cosine
  similarities times ``--scale``, both directions), Adam, plus an L2 pull of every row towards
  its starting value (``--anchor``) so that tokens the pairs rarely show keep their place.
* **Options tried** (docs/BENCHMARKS.md §7, "a code-aware static table"): ``--doc-rest``
  (the code side keeps the docstring's later sentences, as an indexed definition's text
  does), ``--by-file`` (a batch's negatives from the same few modules: the siblings a search
  inside one repository must tell apart), ``--mask 1.0`` (names always masked).
* **Output**: a model directory laid out as the bundled one (``tokenizer.json``,
  ``vectors.npz`` int8 with a float32 scale per row, ``config.json`` with the recipe, data
  sources, pair counts, seed, torch version and the sha256 of ``vectors.npz``). Point astrag
  at it with the embedder spec ``static:/path/to/dir``.

Setup (CPU torch, so pip never pulls a CUDA build)::

    pip install torch==2.13.0
    (cd bench && npm ci)          # optional: TypeScript's lib*.d.ts for --ts-lib

Run::

    python scripts/train_code_table.py --out /tmp/ct28/model \\
        --ts-lib bench/node_modules/typescript/lib

Outcome (2026-12-06): the validation pairs' MRR@10 rises 0.61 -> 0.76, but on the natural
questions' tune split search precision@3 fell in every variant (0.560 -> 0.529-0.547), so no
table was kept; the numbers are in docs/BENCHMARKS.md §7.

Deterministic on CPU for a given torch build, standard library and seed (one thread, seeded
shuffles and masks, deterministic algorithms, a reproducible zip).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import platform
import re
import shutil
import sys
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

from astrag.embed.static import MAX_TOKENS, MODEL_DIR, prepare
from astrag.search.text import code_words

RECIPE = "code-table-1"
_SKIP_PARTS = {"test", "tests", "idle_test", "site-packages", "dist-packages"}
# the first sentence: up to a period, question or exclamation mark followed by a space or
# the end, or the first blank line
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n\s*\n")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_MIN_WORDS = 3
_MAX_WORDS = 48


@dataclass(frozen=True)
class Pair:
    source: str  # file the pair came from (for the validation split)
    sentence: str  # the docstring's first sentence
    name_words: frozenset[str]  # the definition's own name, split, lowercased
    code: str  # the embedded text without the docstring
    rest: str  # the docstring after its first sentence


def distiller() -> ModuleType:
    path = Path(__file__).resolve().parent / "distill_embedder.py"
    spec = importlib.util.spec_from_file_location("distill_embedder", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stdlib_files() -> list[tuple[Path, str, str]]:
    root = Path(sysconfig.get_paths()["stdlib"])
    return [
        (p, "stdlib", p.relative_to(root).as_posix())
        for p in sorted(root.rglob("*.py"))
        if not _SKIP_PARTS & set(p.relative_to(root).parts)
    ]


def ts_lib_files(lib: Path) -> list[tuple[Path, str, str]]:
    return [(p, "tslib", p.name) for p in sorted(lib.glob("lib*.d.ts"))]


def first_sentence(doc: str) -> str:
    text = doc.strip()
    if text.startswith("@"):
        return ""
    head = _SENTENCE_END.split(text, maxsplit=1)[0]
    head = head.split("\n@", 1)[0]  # JSDoc tags end the description
    return " ".join(head.split())


def file_pairs(path: Path, origin: str, shown: str) -> list[Pair]:
    """One pair per documented definition of the file (the module itself left out)."""
    from astrag.lang import extract_facts
    from astrag.search.documents import documents

    source = path.read_bytes()
    bare = without_docstrings(source) if shown.endswith(".py") else source
    try:
        facts = extract_facts(shown, source)
        bare_facts = extract_facts(shown, bare)
    except Exception:  # a file the frontend cannot read gives no pairs
        return []
    if len(bare_facts.definitions) != len(facts.definitions):
        return []
    out = []
    bare_docs = documents(bare_facts, bare)[1:]
    for d, doc, bare_doc in zip(
        facts.definitions, documents(facts, source)[1:], bare_docs, strict=True
    ):
        if not doc.doc:
            continue
        sentence = first_sentence(doc.doc)
        if not _MIN_WORDS <= len(_WORD.findall(sentence)) <= _MAX_WORDS:
            continue
        code = bare_doc.text.replace("\n" + bare_doc.doc, "", 1) if bare_doc.doc else bare_doc.text
        names = frozenset(w.lower() for w in code_words(d.name) if len(w) > 1)
        parts = _SENTENCE_END.split(doc.doc.strip(), maxsplit=1)
        rest = " ".join(parts[1].split()) if len(parts) > 1 else ""
        out.append(Pair(f"{origin}/{shown}", sentence, names, code, rest))
    return out


def without_docstrings(source: bytes) -> bytes:
    """The Python source with every docstring's literal made ``""`` and blanks, byte offsets
    kept: a body's words (which astrag reads from its bytes) would otherwise repeat the
    docstring, and the pair could be matched by copying."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out = bytearray(source)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        first = node.body[0] if node.body else None
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
            and first.end_lineno is not None
            and first.end_col_offset is not None
        ):
            begin = starts[first.lineno - 1] + first.col_offset
            end = starts[first.end_lineno - 1] + first.end_col_offset
            blank = bytes(b if b in b"\r\n" else 32 for b in source[begin:end])
            out[begin:end] = b'""' + blank[2:]
    return bytes(out)


def mine(files: list[tuple[Path, str, str]]) -> list[Pair]:
    pairs = [p for path, origin, shown in files for p in file_pairs(path, origin, shown)]
    # a sentence or a code text given to more than one definition cannot tell them apart
    sentences: dict[str, int] = {}
    codes: dict[str, int] = {}
    for p in pairs:
        key = p.sentence.lower()
        sentences[key] = sentences.get(key, 0) + 1
        codes[p.code] = codes.get(p.code, 0) + 1
    return [p for p in pairs if sentences[p.sentence.lower()] == 1 and codes[p.code] == 1]


def masked(pair: Pair) -> str:
    """The sentence without the words of the definition's own name (nor their inflections)."""
    names = pair.name_words

    def keep(word: str) -> bool:
        w = word.lower()
        return not any(w == n or (len(n) >= 4 and w.startswith(n)) for n in names)

    kept = [w for w in pair.sentence.split() if all(map(keep, _WORD.findall(w)))]
    return " ".join(kept) if len(kept) >= 2 else pair.sentence


def code_text(pair: Pair, doc_rest: bool) -> str:
    """The code side of a pair; with ``doc_rest`` the docstring's later sentences too, as a
    documented definition's embedded text holds them (its first sentence is the query)."""
    return f"{pair.code}\n{pair.rest}" if doc_rest and pair.rest else pair.code


def is_validation(source: str) -> bool:
    """A fixed twentieth of the files, by name: their pairs are never trained on."""
    return hashlib.sha256(source.encode()).digest()[0] < 13


class Tokens:
    """Texts -> wordpiece ids exactly as the static embedder gets them."""

    def __init__(self, model_dir: Path) -> None:
        from tokenizers import Tokenizer

        from astrag.embed.wordpiece import WordpieceIds

        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(MAX_TOKENS)
        self._ids = WordpieceIds(tokenizer, MAX_TOKENS)

    def __call__(self, texts: list[str]) -> list[list[int]]:
        return self._ids.ids([prepare(t) for t in texts])


def load_table(model_dir: Path) -> np.ndarray:
    with np.load(model_dir / "vectors.npz") as data:
        vectors, scales = data["vectors"], data.get("scales")
    table = vectors.astype(np.float32)
    if scales is not None:
        table *= scales[:, None]
    return table


def bag(torch: ModuleType, id_lists: list[list[int]]) -> tuple[object, object]:
    flat = [i for ids in id_lists for i in ids]
    offsets = np.cumsum([0, *map(len, id_lists[:-1])])
    return (
        torch.tensor(flat, dtype=torch.long),
        torch.tensor(offsets, dtype=torch.long),
    )


def encode(torch: ModuleType, weight: object, id_lists: list[list[int]]) -> object:
    """Each text's summed rows, L2-normalised (a text without tokens: a zero row)."""
    ids, offsets = bag(torch, id_lists)
    summed = torch.nn.functional.embedding_bag(ids, weight, offsets, mode="sum")
    return torch.nn.functional.normalize(summed, dim=1, eps=1e-9)


def retrieval_mrr(table: np.ndarray, queries: list[list[int]], docs: list[list[int]]) -> float:
    """MRR@10 of each query's own document among all documents (the validation pairs)."""
    from astrag.embed.base import normalise_rows
    from astrag.embed.pooling import summed_rows

    q = normalise_rows(summed_rows(queries, table.__getitem__, table.shape[1]))
    d = normalise_rows(summed_rows(docs, table.__getitem__, table.shape[1]))
    scores = q @ d.T
    own = scores[np.arange(len(q)), np.arange(len(q))]
    ranks = (scores > own[:, None]).sum(axis=1)
    return float(np.where(ranks < 10, 1.0 / (ranks + 1), 0.0).mean())


def batch_order(pairs: list[Pair], rng: np.random.Generator, by_file: bool) -> np.ndarray:
    """The pairs' order for one epoch. With ``by_file``, files are shuffled and each file's
    pairs kept together (shuffled among themselves), so a batch's negatives are mostly the
    same module's other definitions: the siblings a search inside one repository has to
    tell apart, which share its path and vocabulary."""
    if not by_file:
        return rng.permutation(len(pairs))
    files: dict[str, list[int]] = {}
    for i, pair in enumerate(pairs):
        files.setdefault(pair.source, []).append(i)
    groups = list(files.values())
    return np.array([i for g in rng.permutation(len(groups)) for i in rng.permutation(groups[g])])


def train(
    pairs: list[Pair],
    valid: list[Pair],
    table: np.ndarray,
    tokens: Tokens,
    args: argparse.Namespace,
) -> np.ndarray:
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(args.seed)
    start = torch.tensor(table)
    weight = torch.nn.Parameter(start.clone())
    optimiser = torch.optim.Adam([weight], lr=args.lr)
    code_ids = tokens([code_text(p, args.doc_rest) for p in pairs])
    plain_ids = tokens([p.sentence for p in pairs])
    masked_ids = tokens([masked(p) for p in pairs])
    vq, vd = tokens([p.sentence for p in valid]), tokens([code_text(p, False) for p in valid])
    vqm = tokens([masked(p) for p in valid])
    silent = torch.tensor(~table.any(axis=1))  # zeroed rows (special, punctuation) stay zero

    def report(label: str) -> None:
        now = weight.detach().numpy()
        print(
            f"{label}: validation MRR@10 {retrieval_mrr(now, vq, vd):.3f}"
            f" (names masked {retrieval_mrr(now, vqm, vd):.3f})",
            flush=True,
        )

    report("start")
    for epoch in range(args.epochs):
        order = batch_order(pairs, rng, args.by_file)
        mask = rng.random(len(pairs)) < args.mask
        began, total = time.process_time(), 0.0
        for at in range(0, len(order) - args.batch + 1, args.batch):
            chosen = order[at : at + args.batch]
            q = encode(torch, weight, [masked_ids[i] if mask[i] else plain_ids[i] for i in chosen])
            d = encode(torch, weight, [code_ids[i] for i in chosen])
            logits = args.scale * q @ d.T
            target = torch.arange(len(chosen))
            loss = (
                torch.nn.functional.cross_entropy(logits, target)
                + torch.nn.functional.cross_entropy(logits.T, target)
            ) / 2
            if args.anchor:
                loss = loss + args.anchor * ((weight - start) ** 2).sum()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            with torch.no_grad():
                weight[silent] = 0.0
            total += float(loss.detach())
        steps = max(1, len(order) // args.batch)
        print(
            f"epoch {epoch + 1}: loss {total / steps:.3f}, {time.process_time() - began:.0f} CPU s",
            flush=True,
        )
        report(f"epoch {epoch + 1}")
    return weight.detach().numpy().astype(np.float32)


def torch_version() -> str:
    from importlib.metadata import version

    return version("torch")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, required=True, help="the model directory to write")
    ap.add_argument("--base", type=Path, default=MODEL_DIR, help="the table to start from")
    ap.add_argument("--ts-lib", type=Path, help="TypeScript's lib directory (lib*.d.ts)")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--scale", type=float, default=20.0)
    ap.add_argument("--mask", type=float, default=0.5, help="share of pairs with names masked")
    ap.add_argument("--anchor", type=float, default=0.0, help="L2 pull towards the start")
    ap.add_argument("--doc-rest", action="store_true", help="code side keeps later doc sentences")
    ap.add_argument("--by-file", action="store_true", help="a batch's pairs from few files")
    ap.add_argument("--seed", type=int, default=28)
    args = ap.parse_args()

    began = time.time()
    files = stdlib_files()
    sources = [f"CPython {platform.python_version()} stdlib (tests, site-packages excluded)"]
    if args.ts_lib:
        files += ts_lib_files(args.ts_lib)
        ts_version = json.loads((args.ts_lib.parent / "package.json").read_text())["version"]
        sources.append(f"TypeScript {ts_version} lib*.d.ts")
    pairs = mine(files)
    valid = [p for p in pairs if is_validation(p.source)]
    train_pairs = [p for p in pairs if not is_validation(p.source)]
    counts = {
        kind: sum(p.source.startswith(kind) for p in train_pairs) for kind in ("stdlib", "tslib")
    }
    print(f"{len(train_pairs)} training pairs {counts}, {len(valid)} validation", flush=True)
    tokens = Tokens(args.base)
    table = train(train_pairs, valid, load_table(args.base), tokens, args)

    module = distiller()
    args.out.mkdir(parents=True, exist_ok=True)
    module.save_npz(args.out / "vectors.npz", module.quantise(table, "int8"))
    shutil.copyfile(args.base / "tokenizer.json", args.out / "tokenizer.json")
    base_config = json.loads((args.base / "config.json").read_text(encoding="utf-8"))
    config = {
        **base_config,
        "recipe_version": f"{base_config['recipe_version']}{RECIPE.replace('-', '')}",
        "recipe": {
            "name": RECIPE,
            "script": "scripts/train_code_table.py",
            "start": f"bundled table {base_config['vectors_sha256']}",
            **{
                k: getattr(args, k)
                for k in ("epochs", "batch", "lr", "scale", "mask", "anchor", "doc_rest", "by_file")
            },
            "seed": args.seed,
        },
        "data": sources,
        "pairs": {"train": counts, "validation": len(valid)},
        "torch": torch_version(),
        "python": sys.version.split()[0],
        "vectors_sha256": hashlib.sha256((args.out / "vectors.npz").read_bytes()).hexdigest(),
    }
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.time() - began:.0f} s: {config['vectors_sha256']}")


if __name__ == "__main__":
    main()
