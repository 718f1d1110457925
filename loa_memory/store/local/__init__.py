"""The local logs under ``.loa/``, never committed: the usage events that ``score`` folds into the memory files
(``events``) and when each lifecycle job last ran and what it did (``runs``). Caches of derived data are
``store/cache/``.
"""
