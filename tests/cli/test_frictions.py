"""The small frictions a first trial met (issue 18), each as the user saw it."""

from __future__ import annotations

import json

from tests.fixtures import MEMDIR, Cli


def test_add_correction_without_trigger_names_the_flags(loa: Cli) -> None:
    result = loa("add", "correction", "never call flush in a handler")
    assert result.exit_code != 0
    assert "--trigger TEXT" in result.stderr and "--lesson TEXT" in result.stderr
    assert "schemas/memory.schema.json" not in result.output  # not a file of the user's project


def test_conflict_markers_are_reported_as_a_merge_conflict(loa: Cli) -> None:
    assert loa("add", "fact", "The gateway times out after 30 seconds").exit_code == 0
    facts = loa.root / MEMDIR / "facts.yaml"
    lines = facts.read_text().splitlines()
    marker_line = len(lines) + 1
    facts.write_text(
        "\n".join(
            [*lines, "<<<<<<< HEAD", "- id: MEM-20260101-001", "=======", "- id: MEM-20260101-002", ">>>>>>> other", ""]
        )
    )
    result = loa("lint")
    assert result.exit_code == 1
    assert f"{MEMDIR}/facts.yaml:{marker_line}:1: [error] unresolved merge conflict" in result.stdout
    assert f"git checkout --merge -- {MEMDIR}/facts.yaml" in result.stdout


def test_search_leaves_out_entries_with_no_relevance(loa: Cli) -> None:
    assert loa("add", "fact", "The API gateway times out after 30 seconds").exit_code == 0
    assert loa("add", "fact", "Redis runs on port 6379").exit_code == 0
    assert loa.json("search", "banana smoothie recipe")["results"] == []
    hits = loa.json("search", "gateway timeout")["results"]
    assert [h["summary"] for h in hits] == ["The API gateway times out after 30 seconds"]


def test_init_world_says_updated_for_files_it_changed(loa: Cli) -> None:
    result = loa("init", "--world", "research")
    assert "updated .loa.config.yaml (world research)" in result.stdout
    assert "updated .gitattributes" in result.stdout
    assert "created .loa.config.yaml" not in result.stdout and "created .gitattributes" not in result.stdout
    assert "created grimoires/research/memory/facts.yaml" in result.stdout


def test_an_entry_due_within_24_hours_expires_within_a_day(loa: Cli) -> None:
    assert loa("add", "learning", "The staging certificate is renewed by hand", "--ttl", "1d").exit_code == 0
    output = loa("lint").stdout + loa("stats").stdout + loa("archive", "--check").stdout
    assert "within a day" in output and "0 day" not in output


def test_a_clean_lint_says_so_in_one_line(loa: Cli) -> None:
    assert loa("add", "fact", "The gateway times out after 30 seconds").exit_code == 0
    result = loa("lint")
    assert result.exit_code == 0 and result.stdout == "no problems in 6 memory file(s)\n"
    assert json.loads(loa("lint", "--format", "json").stdout)["findings"] == []


def test_add_warns_about_an_entry_that_has_already_expired(loa: Cli) -> None:
    entry = {
        "category": "fact",
        "content": "The build server lives at build-01",
        "ttl": "30d",
        "source": {"timestamp": "2025-01-01T00:00:00Z"},
    }
    result = loa("add", "--from-json", "-", input=json.dumps(entry))
    assert result.exit_code == 0
    assert "has already expired (2025-01-31T00:00:00Z" in result.stderr
    fresh = loa("add", "fact", "The build server lives at build-02")
    assert "expired" not in fresh.stderr


def test_economics_are_not_judged_on_a_grimoire_within_the_budget(loa: Cli) -> None:
    assert loa("add", "fact", "The gateway times out after 30 seconds").exit_code == 0
    assert loa("recall", "fix the gateway timeout").exit_code == 0
    result = loa("stats", "--economics")
    assert "[BREACH]" not in result.stdout and "savings not judged yet" in result.stdout
    assert loa.json("stats", "--economics")["economics"]["breaches"] == []


def test_stats_shows_when_capture_last_ran(loa: Cli) -> None:
    assert "capture: never" in loa("stats").stdout
    from tests.fixtures import git

    git(loa.root, "add", "-A")
    git(loa.root, "commit", "-qm", "init\n\nFact: the gateway times out after 30 seconds")
    assert loa("capture", "--commit", "HEAD").exit_code == 0
    assert "capture: never" not in loa("stats").stdout


def test_a_confidence_below_the_category_minimum_says_what_to_raise(loa: Cli) -> None:
    entry = {"category": "decision", "summary": "Use X", "content": "We use X for the queue.", "confidence": 0.5}
    outcome = loa("add", "--from-json", "-", input=json.dumps(entry))
    assert outcome.exit_code == 1
    assert 'raise confidence to at least 0.9 (--confidence 0.9, or "confidence": 0.9 in --from-json)' in outcome.output
    assert "nothing was written" in outcome.output
