"""Fine-tune a cross-encoder reranker from all-MiniLM-L6-v2 on (docstring sentence, code) pairs
(dev-only probe, docs/BENCHMARKS.md §7, "a cross-encoder reranker — a probe").

The pairs are those of ``scripts/train_code_table.py`` (CPython's standard library and, with
``--ts-lib``, TypeScript's ``lib*.d.ts``: a definition's first docstring sentence, and the
text astrag embeds for it with the docstring blanked). Each sampled positive gets two
negatives: another documented definition of the **same file** (the sibling a search inside
one repository must tell apart) and one from a random other file. The model reads both
texts together (``[CLS] sentence [SEP] code [SEP]``) and a fresh one-logit head on the
MiniLM encoder is trained with binary cross-entropy. Half the sentences lose the words of
the definition's own name (as in the table's training), so the model cannot match by copying.

Setup: a CPU torch and transformers, and the MiniLM weights as a local directory (nothing is
downloaded: run with ``HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1``)::

    python scripts/train_rerank.py --base /path/to/all-MiniLM-L6-v2 --out /tmp/rr28/ce \\
        --ts-lib bench/node_modules/typescript/lib --positives 1600

Seeded; on 2 threads. The output directory (a transformers model) is not committed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np


def code_table() -> ModuleType:
    path = Path(__file__).resolve().parent / "train_code_table.py"
    spec = importlib.util.spec_from_file_location("train_code_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_code_table"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def examples(
    pairs: list, n: int, rng: np.random.Generator, masked, mask: float
) -> list[tuple[str, str, float]]:
    """``n`` positives, each with a same-file and a random negative (shuffled together)."""
    by_file: dict[str, list[int]] = {}
    for i, p in enumerate(pairs):
        by_file.setdefault(p.source, []).append(i)
    eligible = [i for i, p in enumerate(pairs) if len(by_file[p.source]) > 1]
    chosen = rng.choice(eligible, size=min(n, len(eligible)), replace=False)
    out = []
    for i in chosen:
        p = pairs[i]
        sentence = masked(p) if rng.random() < mask else p.sentence
        sibling = int(rng.choice([j for j in by_file[p.source] if j != i]))
        other = int(rng.integers(len(pairs)))
        while pairs[other].source == p.source:
            other = int(rng.integers(len(pairs)))
        out += [(sentence, p.code, 1.0), (sentence, pairs[sibling].code, 0.0)]
        out.append((sentence, pairs[other].code, 0.0))
    order = rng.permutation(len(out))
    return [out[k] for k in order]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--base", type=Path, required=True, help="all-MiniLM-L6-v2 directory")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--ts-lib", type=Path)
    ap.add_argument("--positives", type=int, default=1600)
    ap.add_argument("--max-length", type=int, default=160)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--mask", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    began = time.time()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    ct = code_table()
    files = ct.stdlib_files() + (ct.ts_lib_files(args.ts_lib) if args.ts_lib else [])
    pairs = [p for p in ct.mine(files) if not ct.is_validation(p.source)]
    data = examples(pairs, args.positives, rng, ct.masked, args.mask)
    mined = time.time() - began
    print(f"{len(pairs)} pairs mined, {len(data)} examples, {mined:.0f} s", flush=True)

    tokenizer = AutoTokenizer.from_pretrained(str(args.base))
    model = AutoModelForSequenceClassification.from_pretrained(str(args.base), num_labels=1)
    model.train()
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    steps = (len(data) + args.batch - 1) // args.batch
    warm = max(1, steps // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min((s + 1) / warm, max(0.0, (steps - s) / (steps - warm)))
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    cpu0, total = time.process_time(), 0.0
    for step in range(steps):
        batch = data[step * args.batch : (step + 1) * args.batch]
        enc = tokenizer(
            [b[0] for b in batch],
            [b[1] for b in batch],
            truncation="only_second",
            max_length=args.max_length,
            padding=True,
            return_tensors="pt",
        )
        logits = model(**enc).logits.squeeze(-1)
        loss = loss_fn(logits, torch.tensor([b[2] for b in batch]))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        total += float(loss.detach())
        if (step + 1) % 50 == 0:
            print(f"step {step + 1}/{steps}: loss {total / (step + 1):.3f}", flush=True)
    model.save_pretrained(str(args.out))
    tokenizer.save_pretrained(str(args.out))
    info = {
        "base": str(args.base),
        "examples": len(data),
        "positives": len(data) // 3,
        **{k: getattr(args, k) for k in ("max_length", "batch", "lr", "mask", "seed", "threads")},
        "mean_loss": total / steps,
        "wall_s": round(time.time() - began),
        "train_cpu_s": round(time.process_time() - cpu0),
    }
    (args.out / "probe.json").write_text(json.dumps(info, indent=2) + "\n")
    print(json.dumps(info), flush=True)


if __name__ == "__main__":
    main()
