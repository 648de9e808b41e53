"""The blueprint's chunking: every indexed source file cut into ~500-token chunks.

A file is cut by tokens, at line boundaries: lines are packed in order into a chunk while its
text stays within ``max_tokens`` (cl100k_base, counted on the chunk's own text), then a new
chunk starts; no overlap. A single line longer than the limit is cut by tokens into pieces
that each keep that line's number as their range. Every chunk keeps its 1-based inclusive
line range, so chunk retrieval can be scored on the same lines as astrag's symbols.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from .tokens import count, encoding

MAX_TOKENS = 500


@dataclass(frozen=True)
class Chunk:
    path: str
    start_line: int
    end_line: int
    text: str
    tokens: int

    @property
    def search_text(self) -> str:
        """What retrieval indexes: the path, then the chunk (the model sees ``text``)."""
        return f"{self.path}\n{self.text}"


def chunk_text(path: str, text: str, max_tokens: int = MAX_TOKENS) -> list[Chunk]:
    lines = text.splitlines(keepends=True)
    sizes = [count(line) for line in lines]
    out: list[Chunk] = []
    i = 0
    while i < len(lines):
        if sizes[i] > max_tokens:  # one huge line (minified data, a long literal)
            ids = encoding().encode(lines[i], disallowed_special=())
            for k in range(0, len(ids), max_tokens):
                piece = encoding().decode(ids[k : k + max_tokens])
                out.append(Chunk(path, i + 1, i + 1, piece, count(piece)))
            i += 1
            continue
        j, total = i, 0  # pack by the per-line counts, then check the joined text exactly
        while j < len(lines) and sizes[j] <= max_tokens and total + sizes[j] <= max_tokens:
            total += sizes[j]
            j += 1
        body = "".join(lines[i:j])
        tokens = count(body)
        while tokens > max_tokens and j > i + 1:
            j -= 1
            body = "".join(lines[i:j])
            tokens = count(body)
        if body.strip():
            out.append(Chunk(path, i + 1, j, body, tokens))
        i = j
    return out


def chunk_files(root: Path, paths: list[str], max_tokens: int = MAX_TOKENS) -> list[Chunk]:
    chunks: list[Chunk] = []
    for path in paths:
        text = (root / path).read_text("utf-8", errors="replace")
        chunks.extend(chunk_text(path, text, max_tokens))
    return chunks


def cached_chunks(root: Path, paths: list[str], cache_dir: Path) -> tuple[list[Chunk], str]:
    """Chunks of ``paths`` under ``root``, cached as JSON; also their key (for embeddings)."""
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(paths):
        digest.update(path.encode() + b"\0" + (root / path).read_bytes() + b"\0")
    digest.update(str(MAX_TOKENS).encode())
    key = digest.hexdigest()
    cache = cache_dir / f"chunks-{key}.json"
    if cache.is_file():
        return [Chunk(**c) for c in json.loads(cache.read_text())], key
    chunks = chunk_files(root, sorted(paths))
    cache_dir.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps([asdict(c) for c in chunks]))
    return chunks, key
