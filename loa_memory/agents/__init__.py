"""Adapters that plug loa-memory into agent frameworks.

Each adapter imports its framework itself, so importing this package needs none of them:
``loa_memory.agents.anthropic_memory`` needs the ``anthropic`` extra (``pip install 'loa-memory[anthropic]'``).
``memory_paths`` (the ``/memories`` path mapping) needs nothing.
"""
