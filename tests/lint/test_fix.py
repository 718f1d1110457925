"""`lint --fix` fixes what it reports and nothing else; a second run changes nothing."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures import MEMDIR, Cli, git

FACTS = """# hand-written comment stays
- id: MEM-20260101-001
  category: fact
  summary: The gateway times out after 30 seconds
  content: The API gateway closes idle connections after 30 seconds.   # keep me
  confidence: 0.9
  source: {session_id: s1, timestamp: '2026-01-01T10:00:00Z'}
  ttl: permanent
  tags: [Gateway Timeouts]
- id: MEM-20260102-001
  category: fact
  summary: The gateway times out after 60 seconds
  content: Since the upgrade the gateway keeps idle connections for 60 seconds.
  confidence: 0.9
  source: {session_id: s1, timestamp: '2026-01-02T10:00:00Z'}
  ttl: permanent
  supersedes: MEM-20260101-001
"""
LEARNINGS = """- id: MEM-20260103-001
  category: learning
  summary: Old learning
  content: This one expired long ago.
  confidence: 0.8
  source: {session_id: s1, timestamp: '2026-01-03T10:00:00Z'}
  ttl: 30d
  expires_at: '2026-02-02T10:00:00Z'
- id: MEM-20260104-001
  category: learning
  summary: Fresh learning
  content: Real repositories beat mocks.
  confidence: 0.8
  source: {session_id: s1, timestamp: '2026-11-01T10:00:00Z'}
  ttl: 9000d
"""


def _seed(root: Path) -> None:
    (root / MEMDIR / "facts.yaml").write_text(FACTS)
    (root / MEMDIR / "learnings.yaml").write_text(LEARNINGS)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "seed")


def test_fix_repairs_each_fixable_finding_and_reports_it(loa: Cli) -> None:
    _seed(loa.root)
    before = loa.json("lint")["findings"]
    assert {f["rule"] for f in before if f["fixable"]} == {"tag-format", "supersedes", "expired", "missing-expiry"}
    result = loa("lint", "--fix")
    fixed = [line for line in result.stdout.splitlines() if line.startswith("fixed ")]
    assert len(fixed) == 4, result.stdout
    assert result.exit_code == 0, result.output
    diff = git(loa.root, "diff", "-U0")
    removed = [ln for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    added = [ln for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    assert "-  tags: [Gateway Timeouts]" in removed
    assert "+  tags: [gateway-timeouts]" in added
    assert "+  superseded_by: MEM-20260102-001" in added
    assert "+  expires_at: '2051-06-23T10:00:00Z'" in added
    facts = (loa.root / MEMDIR / "facts.yaml").read_text()
    assert facts.startswith("# hand-written comment stays\n") and "# keep me" in facts
    archived = (loa.root / MEMDIR / "archive" / "learnings.yaml").read_text()
    assert "MEM-20260103-001" in archived and "archive_reason: expired" in archived
    assert "MEM-20260103-001" not in (loa.root / MEMDIR / "learnings.yaml").read_text()
    expired_entry = LEARNINGS.split("- id: MEM-20260104-001")[0].splitlines()
    assert sorted(removed) == sorted(["-  tags: [Gateway Timeouts]", *[f"-{ln}" for ln in expired_entry]])
    snapshot = {p: p.read_bytes() for p in (loa.root / MEMDIR).rglob("*.yaml")}
    again = loa("lint", "--fix")
    assert not [line for line in again.stdout.splitlines() if line.startswith("fixed ")]
    assert {p: p.read_bytes() for p in (loa.root / MEMDIR).rglob("*.yaml")} == snapshot
    assert loa("lint", "--strict").exit_code == 0
