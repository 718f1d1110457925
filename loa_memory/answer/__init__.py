"""Answers built on the search engine: ``recall`` (the memories that bear on a task, within a token budget),
``why`` (the decisions behind a file, a line or a question), the ``session start`` brief, ``list``/``show``
(``browse``), decision threads, negative results, artifact backlinks, blame to commits, agents' ledgers and
handoffs as read, and recall's token economics. Reads only: nothing here writes a memory file.
"""
