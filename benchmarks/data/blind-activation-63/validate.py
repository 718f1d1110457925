#!/usr/bin/env python3
"""Check blind activation set 63 (ids AA01..AA40) with the shared validator.

Looks for the validator at ../validate_activation.py first, then at ../refs/validate_activation.py,
and runs it with --prefix AA on this folder.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CANDIDATES = [
    os.path.join(os.path.dirname(__file__), "..", "validate_activation.py"),
    os.path.join(HERE, "..", "validate_activation.py"),
    "../refs/validate_activation.py",
    os.path.join(HERE, "..", "refs", "validate_activation.py"),
]

for path in CANDIDATES:
    if os.path.isfile(path):
        sys.exit(subprocess.call([sys.executable, path, "--prefix", "AA", HERE]))
sys.exit("validate_activation.py not found (looked for ../validate_activation.py and ../refs/validate_activation.py)")
