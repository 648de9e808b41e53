"""The natural-question benchmark (docs/BENCHMARKS.md section 7)."""
