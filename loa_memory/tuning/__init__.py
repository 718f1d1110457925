"""Adaptive retrieval weights: named weight profiles (``profiles``), the bandit that picks one per recall from
the committed log summary (``bandit``, ``summary``) and the A/B comparison of two profiles (``abtest``). Pure
functions over the summary; the fold of the local recall log into it is ``lifecycle.weights``.
"""
