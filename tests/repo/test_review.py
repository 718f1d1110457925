"""review BASE..HEAD on a branch that added two, superseded one and archived one."""

from __future__ import annotations

from tests.fixtures import MEMDIR, Cli, git


def test_review_lists_exactly_what_the_branch_did(loa: Cli) -> None:
    old = loa.json("add", "decision", "Use REST for every API", "--confidence", "0.95")["id"]
    stale = loa.json("add", "learning", "The staging cluster sleeps at night", "--ttl", "1d")["id"]
    learnings = loa.root / MEMDIR / "learnings.yaml"
    text = learnings.read_text()  # make the learning expire long ago
    start = text.index("expires_at: '") + len("expires_at: '")
    learnings.write_text(text[:start] + "2020-01-02T00:00:00Z" + text[text.index("'", start):])
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "base")
    git(loa.root, "checkout", "-q", "-b", "feature")
    first = loa.json("add", "fact", "The gateway times out after 30 seconds")["id"]
    new = loa.json("supersede", old, "Use gRPC for internal APIs, REST for public ones")["id"]
    assert loa("archive").exit_code == 0
    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "feature")
    data = loa.json("review", "main..HEAD")
    assert sorted(a["id"] for a in data["added"]) == sorted([first, new])
    assert [(s["old"], s["new"]) for s in data["superseded"]] == [(old, new)]
    assert [(a["id"], a["reason"]) for a in data["archived"]] == [(stale, "expired")]
    markdown = loa("review", "main..HEAD").stdout
    assert "### Added (2)" in markdown and "### Superseded (1)" in markdown and "### Archived (1)" in markdown
