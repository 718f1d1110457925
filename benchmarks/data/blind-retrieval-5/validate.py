#!/usr/bin/env python3
"""Validate the blind retrieval queries in queries.jsonl (ids FQ001..) against memories.jsonl (the checks:
../validate_retrieval.py). Exits 1 on any error.

Usage: python3 validate.py [queries.jsonl] [memories.jsonl]
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "validate_retrieval.py")
QUERIES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "queries.jsonl")
sys.exit(subprocess.call([sys.executable, SHARED, "--prefix", "FQ", QUERIES, *sys.argv[2:3]]))
