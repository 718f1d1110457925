#!/usr/bin/env python3
"""Validate the blind activation set 76 evaluation files: schema, counts and cross-references (the checks:
../validate_activation.py; correction ids AN01..AN40).

Usage: python3 validate.py [directory]   (default: the directory of this script)
"""
import os
import subprocess
import sys

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "validate_activation.py")
sys.exit(subprocess.call([sys.executable, SHARED, "--prefix", "AN", HERE]))
