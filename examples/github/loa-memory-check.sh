#!/usr/bin/env bash
# The pull-request check of loa-memory, as the GitHub Actions workflow next to this file runs it; run it
# locally the same way:   examples/github/loa-memory-check.sh origin/main
#
# 1. `loa-memory lint --base BASE` as SARIF (loa-memory.sarif, for code scanning): ids this branch added that
#    BASE also added (id-collision), ids used twice (duplicate-id), governance, and every other rule;
# 2. the same findings as text, and `loa-memory review BASE..HEAD` (Markdown), appended to the job summary
#    ($GITHUB_STEP_SUMMARY; locally ./loa-memory-summary.md unless set).
# Exits with lint's status: 0 clean, 1 findings (a collision to repair with `loa-memory lint --fix --base BASE`).
set -u
base="${1:?usage: loa-memory-check.sh BASE_REF (e.g. origin/main)}"
loa="${LOA_MEMORY:-loa-memory}"
sarif="${LOA_MEMORY_SARIF:-loa-memory.sarif}"
summary="${GITHUB_STEP_SUMMARY:-loa-memory-summary.md}"

$loa lint --base "$base" --format sarif > "$sarif"
status=$?
if [ "$status" -gt 1 ]; then
  echo "loa-memory lint could not run (exit $status)" >&2
  exit "$status"
fi
{
  echo "## Memory lint against $base"
  echo
  if [ "$status" -eq 0 ]; then
    echo "No findings."
  else
    echo '```text'
    $loa lint --base "$base" --format text
    echo '```'
    echo
    echo "Repair id collisions with \`loa-memory lint --fix --base $base\` (renumbers this branch's entries and rewrites their references)."
  fi
  echo
  $loa review "$base..HEAD"
} >> "$summary"
exit "$status"
