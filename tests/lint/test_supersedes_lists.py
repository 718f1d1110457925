"""The supersedes rule on consolidations (``supersedes: [MEM-a, MEM-b]``): each id is checked like a single one."""

from __future__ import annotations

import pytest

from tests.fixtures import MEMDIR, Cli


def _fact(n: int, **links: object) -> str:
    lines = [
        f"- id: MEM-20260101-00{n}",
        "  category: fact",
        f"  summary: fact number {n}",
        f"  content: The gateway keeps idle connections for {n}0 seconds.",
        "  confidence: 0.9",
        "  source:",
        "    session_id: s1",
        f"    timestamp: '2026-01-0{n}T10:00:00Z'",
        "  ttl: permanent",
    ]
    lines += [f"  {key}: {value}" for key, value in links.items()]
    return "\n".join(lines) + "\n"


CASES = [
    (
        "consolidation",
        [
            _fact(1, superseded_by="MEM-20260101-003"),
            _fact(2, superseded_by="MEM-20260101-003"),
            _fact(3, supersedes="[MEM-20260101-001, MEM-20260101-002]"),
        ],
        [],
    ),
    ("one id in a list", [_fact(1, superseded_by="MEM-20260101-002"), _fact(2, supersedes="[MEM-20260101-001]")], []),
    (
        "dangling id in a list",
        [_fact(1, superseded_by="MEM-20260101-003"), _fact(3, supersedes="[MEM-20260101-001, MEM-20260101-009]")],
        ["supersedes MEM-20260101-009, which does not exist"],
    ),
    (
        "missing back-link",
        [
            _fact(1, superseded_by="MEM-20260101-003"),
            _fact(2),
            _fact(3, supersedes="[MEM-20260101-001, MEM-20260101-002]"),
        ],
        ["MEM-20260101-002 is superseded by MEM-20260101-003 but has no `superseded_by: MEM-20260101-003` back-link"],
    ),
    (
        "back-link not in the list",
        [
            _fact(1, superseded_by="MEM-20260101-003"),
            _fact(2, superseded_by="MEM-20260101-003"),
            _fact(3, supersedes="[MEM-20260101-001]"),
        ],
        ["MEM-20260101-002 names MEM-20260101-003 as its successor, but MEM-20260101-003 supersedes MEM-20260101-001"],
    ),
    (
        "fork through a list",
        [
            _fact(1, superseded_by="MEM-20260101-002"),
            _fact(2, supersedes="[MEM-20260101-001]"),
            _fact(3, supersedes="[MEM-20260101-001, MEM-20260101-004]"),
            _fact(4, superseded_by="MEM-20260101-003"),
        ],
        ["MEM-20260101-001 is superseded twice (MEM-20260101-002, MEM-20260101-003)"],
    ),
    (
        "cycle through a list",
        [
            _fact(1, supersedes="MEM-20260101-003", superseded_by="MEM-20260101-002"),
            _fact(2, supersedes="[MEM-20260101-001, MEM-20260101-004]", superseded_by="MEM-20260101-003"),
            _fact(3, supersedes="MEM-20260101-002", superseded_by="MEM-20260101-001"),
            _fact(4, superseded_by="MEM-20260101-002"),
        ],
        ["supersede cycle: MEM-20260101-001 -> MEM-20260101-003 -> MEM-20260101-002 -> MEM-20260101-001"],
    ),
]


@pytest.mark.parametrize(("name", "items", "expected"), CASES, ids=[c[0] for c in CASES])
def test_supersedes_rule_on_lists(loa: Cli, name: str, items: list[str], expected: list[str]) -> None:
    (loa.root / MEMDIR / "facts.yaml").write_text("".join(items))
    findings = [f["message"] for f in loa.json("lint")["findings"] if f["rule"] in ("supersedes", "schema")]
    assert len(findings) == len(expected), findings
    for message, wanted in zip(findings, expected, strict=True):
        assert message.startswith(wanted), (message, wanted)


def test_fix_adds_each_missing_back_link(loa: Cli) -> None:
    (loa.root / MEMDIR / "facts.yaml").write_text(
        _fact(1) + _fact(2) + _fact(3, supersedes="[MEM-20260101-001, MEM-20260101-002]")
    )
    assert loa("lint", "--fix").exit_code == 0
    text = (loa.root / MEMDIR / "facts.yaml").read_text()
    assert text.count("superseded_by: MEM-20260101-003") == 2
    assert loa("lint").exit_code == 0


def test_a_bad_id_in_a_list_is_a_schema_finding(loa: Cli) -> None:
    (loa.root / MEMDIR / "facts.yaml").write_text(_fact(1, supersedes="[MEM-1]"))
    result = loa("lint")
    assert result.exit_code == 1 and "supersedes" in result.stdout
