"""Agents' working memory and the adapters that plug loa-memory into agent frameworks.

What agents write besides memories: ledger checkpoints and handoffs (``ledger_write``), notes (``notes``,
``note_write``), all through ``write``; the JSON an agent's hook passes on stdin (``hook_input``).

Each adapter imports its framework itself, so importing this package needs none of them:
``loa_memory.agents.anthropic_memory`` needs the ``anthropic`` extra (``pip install 'loa-memory[anthropic]'``).
``memory_paths`` (the ``/memories`` path mapping) needs nothing.
"""
