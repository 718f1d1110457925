#!/usr/bin/env python3
"""Validate blind activation set 64 with the shared validator (ids AB01..AB40)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CANDIDATES = [
    os.path.join(os.path.dirname(__file__), "..", "validate_activation.py"),
    os.path.join(HERE, "..", "refs", "validate_activation.py"),
    "../refs/validate_activation.py",
]

for path in CANDIDATES:
    if os.path.exists(path):
        validator = path
        break
else:
    sys.exit("validate_activation.py not found in ../ or ../refs/")

sys.exit(subprocess.call([sys.executable, validator, "--prefix", "AB", HERE]))
