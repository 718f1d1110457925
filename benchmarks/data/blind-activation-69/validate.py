#!/usr/bin/env python3
"""Check this set with the shared validator: python3 validate.py"""
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
    if os.path.exists(path):
        validator = path
        break
else:
    sys.exit("validate_activation.py not found (looked for ../validate_activation.py and ../refs/validate_activation.py)")

sys.exit(subprocess.call([sys.executable, validator, "--prefix", "AG", HERE]))
