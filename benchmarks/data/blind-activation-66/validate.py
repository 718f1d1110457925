#!/usr/bin/env python3
"""Check set 66 with the shared validator (ids AD01..AD40): python3 validate.py"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CANDIDATES = [
    os.path.join(os.path.dirname(__file__), "..", "validate_activation.py"),
    "../refs/validate_activation.py",
    os.path.join(HERE, "..", "refs", "validate_activation.py"),
]

for path in CANDIDATES:
    if os.path.isfile(path):
        sys.exit(subprocess.call([sys.executable, path, "--prefix", "AD", HERE]))
sys.exit("validate_activation.py not found (looked for ../validate_activation.py and ../refs/validate_activation.py)")
