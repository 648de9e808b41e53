"""Code-search quality on semble's public benchmark (NDCG@10 over natural-language queries with
relevance judgements on pinned repositories). See docs/BENCHMARKS.md section 5."""
