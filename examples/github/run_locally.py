"""Run the ``run:`` steps of loa-memory's pull-request workflow (loa-memory.yml) here, as GitHub would.

    python examples/github/run_locally.py --base main [--workflow PATH] [--summary FILE]

Each ``run:`` step runs in bash from the current directory with ``GITHUB_BASE_REF`` and ``GITHUB_STEP_SUMMARY``
set; ``uses:`` steps (checkout, setup-python, the SARIF upload) and the install step are skipped: the
checkout is the current repository, and ``loa-memory`` is the one on PATH. ``origin/BASE`` falls back to
``BASE`` when the repository has no ``origin``. The ``if:`` forms the workflow uses are honoured
(``always()``, ``steps.ID.outcome == 'failure'``) and ``continue-on-error``. Exit status: the job's (1 when a
step failed that did not continue on error).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
_OUTCOME = re.compile(r"^steps\.([\w-]+)\.outcome == '(success|failure)'$")


def _wanted(condition: str | None, outcomes: dict[str, str], failed: bool) -> bool:
    if condition is None:
        return not failed
    condition = condition.strip()
    if condition == "always()":
        return True
    match = _OUTCOME.match(condition)
    if match is None:
        raise SystemExit(f"run_locally.py does not understand `if: {condition}`")
    return outcomes.get(match.group(1)) == match.group(2)


def run_workflow(workflow: Path, base: str, summary: Path) -> int:
    """Run the workflow's steps; returns the job's exit status."""
    spec: dict[str, Any] = yaml.safe_load(workflow.read_text("utf-8"))
    env = {**os.environ, "GITHUB_BASE_REF": base, "GITHUB_STEP_SUMMARY": str(summary.resolve())}
    has_origin = (
        subprocess.run(["git", "rev-parse", "-q", "--verify", f"origin/{base}"], capture_output=True).returncode == 0
    )
    outcomes: dict[str, str] = {}
    failed = False
    for job in spec["jobs"].values():
        for step in job["steps"]:
            if "run" not in step or step["run"].lstrip().startswith("pip install"):
                continue
            if not _wanted(step.get("if"), outcomes, failed):
                continue
            script = (
                step["run"] if has_origin else step["run"].replace("origin/${GITHUB_BASE_REF}", "${GITHUB_BASE_REF}")
            )
            print(f"::group::{step.get('name', script.splitlines()[0])}", flush=True)
            code = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], env=env).returncode
            print("::endgroup::", flush=True)
            if "id" in step:
                outcomes[step["id"]] = "success" if code == 0 else "failure"
            if code and not step.get("continue-on-error"):
                failed = True
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the pull request's base branch (GITHUB_BASE_REF)")
    parser.add_argument("--workflow", type=Path, default=HERE / "loa-memory.yml")
    parser.add_argument("--summary", type=Path, default=Path("loa-memory-summary.md"))
    args = parser.parse_args()
    return run_workflow(args.workflow, args.base, args.summary)


if __name__ == "__main__":
    sys.exit(main())
