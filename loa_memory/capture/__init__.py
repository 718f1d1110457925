"""Capture: memories from what already happened. Commit-message trailers (``trailers``, ``commits``) and agent
session transcripts (``transcript``, ``cues``, ``trace``) become candidates (``candidates``), duplicates of what
the grimoire holds are dropped (``seen``), and the rest is written through ``write`` (``pipeline.capture``).
"""
