"""One decision that replaces several: ``supersedes: [MEM-a, MEM-b]`` through the library, the CLI, lint,
``show``/``why``, search and archive; the one-id form Loa reads stays as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from loa_memory.errors import UsageError
from loa_memory.store import load_config
from loa_memory.store.load import load_grimoire
from loa_memory.write.add import add_entry, split_ids, supersede_entry
from tests.fixtures import MEMDIR, Cli


def _decisions(loa: Cli) -> tuple[str, str, str]:
    ids = [
        loa.json("add", "decision", text, "--tags", tag)["id"]
        for text, tag in (
            ("Use REST for the orders service API", "api"),
            ("Use REST for the billing service API", "billing"),
            ("Log every request body at debug level", "logging"),
        )
    ]
    return ids[0], ids[1], ids[2]


@pytest.mark.parametrize("how", ["comma", "also"])
def test_cli_supersede_replaces_several_entries(loa: Cli, how: str) -> None:
    a, b, _c = _decisions(loa)
    args = [f"{a},{b}"] if how == "comma" else [a, "--also", b]
    written = loa.json("supersede", *args, "Use gRPC for every internal service API")
    assert written["supersedes"] == [a, b] and written["entry"]["supersedes"] == [a, b]
    assert written["entry"]["tags"] == ["api", "billing"]
    grimoire = load_grimoire(load_config(loa.root))
    for old in (a, b):
        assert grimoire.get(old).superseded_by == written["id"]
        assert grimoire.status(grimoire.get(old)) == "superseded"
    assert loa("lint").exit_code == 0, loa("lint").stdout
    text = loa("supersede", f"{a}", "again").stderr
    assert f"already superseded by {written['id']}" in text


def test_one_id_keeps_the_loa_form(loa: Cli) -> None:
    a, _b, _c = _decisions(loa)
    written = loa.json("supersede", a, "Use gRPC for the orders service API")
    assert written["entry"]["supersedes"] == a
    assert f"supersedes: {a}\n" in (loa.root / MEMDIR / "decisions.yaml").read_text()


def test_refusals_write_nothing(loa: Cli) -> None:
    a, b, _c = _decisions(loa)
    before = (loa.root / MEMDIR / "decisions.yaml").read_text()
    missing = loa("supersede", f"{a},MEM-20200101-001", "text")
    assert missing.exit_code == 1 and "no memory with id 'MEM-20200101-001'" in missing.stderr
    twice = loa("supersede", a, "--also", a, "--also", b, "text")
    assert twice.exit_code == 0  # the same id given twice is one id
    assert (loa.root / MEMDIR / "decisions.yaml").read_text().startswith(before[: before.index(f"- id: {a}")])
    again = loa("supersede", f"{a},{b}", "text")
    assert again.exit_code == 2 and "already superseded" in again.stderr


def test_split_ids() -> None:
    assert split_ids("MEM-20260101-001, MEM-20260101-002") == ["MEM-20260101-001", "MEM-20260101-002"]
    assert split_ids(["MEM-20260101-001", "MEM-20260101-002,MEM-20260101-001"]) == [
        "MEM-20260101-001",
        "MEM-20260101-002",
    ]


def test_library_refuses_nothing_to_supersede(grimoire: Path) -> None:
    with pytest.raises(UsageError, match="no id to supersede"):
        supersede_entry(load_config(grimoire), " , ", {"content": "x"})


def test_show_and_why_list_every_replaced_entry(loa: Cli) -> None:
    a, b, _c = _decisions(loa)
    first = loa.json("supersede", a, "Use gRPC for the orders service API")["id"]
    merged = loa.json("supersede", f"{first},{b}", "Use gRPC for every internal service API")["id"]
    shown = loa.json("show", merged)
    assert [r["id"] for r in shown["supersedes_chain"]] == [first, b, a]
    assert [r["id"] for r in loa.json("show", b)["superseded_by_chain"]] == [merged]
    text = loa("show", merged).stdout
    assert f"<- {first}" in text and f"<- {b}" in text and f"<- {a}" in text
    why = loa.json("why", "gRPC internal service API")
    item = next(i for i in why["results"] if i["id"] == merged)
    assert [s["id"] for s in item["supersedes"]] == [first, b, a]


def test_search_shows_the_consolidation_in_place_of_each_replaced_entry(loa: Cli) -> None:
    a, b, _c = _decisions(loa)
    merged = loa.json("supersede", f"{a},{b}", "Use gRPC between our services", "--summary", "gRPC between services")[
        "id"
    ]
    for query in ("orders service REST", "billing service REST"):
        current = loa.json("search", query, "--mode", "lexical")["results"]
        assert current[0]["id"] == merged and {a, b}.isdisjoint(r["id"] for r in current)
        history = [r["id"] for r in loa.json("search", query, "--mode", "lexical", "--history")["results"]]
        assert history.index(merged) < min(history.index(x) for x in (a, b) if x in history)


def test_archive_moves_each_replaced_entry(loa: Cli) -> None:
    config = load_config(loa.root)
    old = [
        add_entry(
            config,
            {
                "category": "fact",
                "content": f"fact {n}",
                "source": {"session_id": "s", "timestamp": "2020-01-01T00:00:00Z"},
            },
        ).data["id"]
        for n in range(2)
    ]
    new, _ = supersede_entry(
        config,
        old,
        {"content": "both facts, merged", "source": {"session_id": "s", "timestamp": "2020-01-02T00:00:00Z"}},
    )
    archived = loa.json("archive")
    moved = {item["id"] for item in archived["entries"]}
    assert moved >= set(old) and new.data["id"] not in moved
    assert loa("lint").exit_code == 0, loa("lint").stdout
