"""The retrieval benchmark: astrag's token-budgeted context against 500-token-chunk vector RAG
and BM25, judged on real commits (see ``run.py`` and docs/BENCHMARKS.md section 4)."""
