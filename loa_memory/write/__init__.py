"""The only code that writes memory files: ``add`` (add and supersede, under the grimoire's lock, schema and
secret gate first), ``moves`` (entries to ``archive/``), ``renumber`` (colliding ids) and ``fix``
(``lint --fix``'s mechanical repairs). Every write is atomic and never rewrites a file that failed to parse.
"""
