#!/usr/bin/env python3
"""Check set 67 with the shared validator (ids AE01..AE40)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CANDIDATES = [
    os.path.join(os.path.dirname(__file__), "..", "validate_activation.py"),
    os.path.join(HERE, "..", "validate_activation.py"),
    os.path.join(HERE, "..", "refs", "validate_activation.py"),
    "../refs/validate_activation.py",
]

for path in CANDIDATES:
    if os.path.exists(path):
        sys.exit(subprocess.call([sys.executable, path, "--prefix", "AE", HERE]))
sys.exit("validate_activation.py not found next to this folder (../validate_activation.py or ../refs/validate_activation.py)")
