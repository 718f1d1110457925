"""Derived data kept between runs, keyed by content: marshal blobs under ``.loa/cache/`` (``disk``), the loader's
per-file parse cache (``parsed``) in chunks of items (``chunks``), and the warm server's in-process reuse of
loaded state (``memo``). A failure to read or write a cache only costs a recompute.
"""
