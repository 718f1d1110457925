"""loa-memory inside the user's git repository: ``init`` (config, grimoire folders, ``.loa/``), the plain git
hooks it installs (``hooks``, scripts in ``githooks/``), the merge driver for memory files (``merge``) and
``review`` of what a range of commits did to memory.
"""
