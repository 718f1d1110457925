"""The search engine: finds entries for a query. The Whoosh full-text index (``index``, scored by ``bm25``,
widened by ``synonyms``), the embeddings sidecar (``embed/``), hybrid fusion and weighting (``rank``), the
task-type strategy (``strategy``), ``search`` itself and ``build`` (the ``index`` command). It knows nothing
of recall, budgets or the products built on it (``answer/``).
"""
