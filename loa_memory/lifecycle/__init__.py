"""The lifecycle of memories once written: archival (TTL, superseded, ineffective), effectiveness scoring from
the usage log (``usage``, ``feedback``, ``effectiveness``), the recall log and the weight summary it feeds
(``recall_log``, ``weights``), promotion of recurring episodes (``promote``, ``clusters``, ``antipatterns``,
``metacue``), graduation of cues into conventions, sessions, ``stats`` and its token economics.
"""
