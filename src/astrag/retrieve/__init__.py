"""Retrieval: a question in, a token-budgeted, explained context out.

``plan`` reads the question (intent, named targets, which edges to expand), ``expand`` walks
the graph from the seeds search finds, ``assemble`` fills the budget (counted by ``tokens``),
``answer`` runs the stages in order. Nothing is imported here, so that using one stage does
not import the others.
"""
