#!/usr/bin/env python3
"""Checks blind transcript set 25 (the checks: ../validate_transcripts.py). Exits 1 on any error."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "validate_transcripts.py")
sys.exit(subprocess.call([sys.executable, SHARED, "--groups", "q", "--pairs", "r", "--negatives", "t:12", "--days",
                          "2026-11-27:2026-12-06", "--no-project-check", "--one-project", HERE]))
