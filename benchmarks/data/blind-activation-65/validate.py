#!/usr/bin/env python3
"""Validate blind activation set 65: runs the shared validate_activation.py with --prefix AC on this folder."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CANDIDATES = [
    os.path.join(HERE, "..", "validate_activation.py"),
    os.path.join(HERE, "..", "refs", "validate_activation.py"),
]

for path in CANDIDATES:
    if os.path.exists(path):
        sys.exit(subprocess.call([sys.executable, path, "--prefix", "AC", HERE]))
sys.exit("validate_activation.py not found (looked for ../validate_activation.py and ../refs/validate_activation.py)")
