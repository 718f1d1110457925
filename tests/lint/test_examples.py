"""Example folders: one violation per rule, reported once, at the right place, in every format."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import jsonschema
import pytest

from loa_memory.lint import RULES_BY_ID
from tests.fixtures import MEMDIR, Cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SARIF_SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "compat" / "sarif-schema-2.1.0.json").read_text())
INVALID = sorted(p.name for p in (EXAMPLES / "invalid").iterdir())


def _seed(loa: Cli, folder: Path) -> None:
    memdir = loa.root / MEMDIR
    soon = (datetime.now(UTC) + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    for source in folder.rglob("*"):
        if source.is_file() and source.name != "expected.txt":
            rel = source.relative_to(folder)
            # `_local/` holds what a machine keeps under .loa/ (the usage log)
            target = loa.root / ".loa" / rel.relative_to("_local") if rel.parts[0] == "_local" else memdir / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source.read_text().replace("{soon}", soon))


def test_every_rule_has_an_invalid_example_and_a_docstring_with_examples() -> None:
    history_rules = {rule_id for rule_id, module in RULES_BY_ID.items() if getattr(module, "NEEDS_BASE", False)}
    assert set(INVALID) == set(RULES_BY_ID) - history_rules  # those are tested against real git history
    for rule_id, module in RULES_BY_ID.items():
        doc = module.__doc__ or ""
        assert "Passing" in doc and "Failing" in doc, rule_id


@pytest.mark.parametrize("rule", INVALID)
def test_invalid_example_is_reported_once_at_its_place(rule: str, loa: Cli) -> None:
    folder = EXAMPLES / "invalid" / rule
    _seed(loa, folder)
    rel, line, col = (folder / "expected.txt").read_text().strip().rsplit(":", 2)
    where = f"{MEMDIR}/{rel}"
    severity = RULES_BY_ID[rule].SEVERITY
    text = loa("lint")
    assert text.stdout.splitlines()[0].startswith(f"{where}:{line}:{col}: [{severity}] ")
    assert text.stdout.splitlines()[0].endswith(f"({rule})")
    assert len(text.stdout.splitlines()) == 2, text.stdout
    assert text.exit_code == (1 if severity == "error" else 0)
    findings = loa.json("lint")["findings"]
    assert [(f["path"], f["line"], f["col"], f["rule"]) for f in findings] == [(where, int(line), int(col), rule)]
    github = loa("lint", "--format", "github").stdout.strip()
    level = {"error": "error", "warning": "warning"}[severity]
    assert github.startswith(f"::{level} file={where},line={line},col={col},title={rule}::")
    assert len(github.splitlines()) == 1
    sarif = json.loads(loa("lint", "--format", "sarif").stdout)
    jsonschema.Draft7Validator(SARIF_SCHEMA).validate(sarif)
    (result,) = sarif["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (result["ruleId"], region["startLine"], region["startColumn"]) == (rule, int(line), int(col))


def test_clean_grimoire_exits_0_with_a_one_line_summary(loa: Cli) -> None:
    _seed(loa, EXAMPLES / "valid" / "all-rules")
    result = loa("lint", "--strict")
    assert (result.exit_code, result.stdout, result.stderr) == (0, "no problems in 7 memory file(s)\n", "")


def test_secret_values_never_appear_in_any_format(loa: Cli) -> None:
    _seed(loa, EXAMPLES / "invalid" / "secret")
    secret = "AKIA" + "Z7QH4GXN2PL5RT3W"
    for fmt in ("text", "json", "github", "sarif"):
        assert secret not in loa("lint", "--format", fmt).output


def test_inline_ignore_and_config_severity(loa: Cli) -> None:
    _seed(loa, EXAMPLES / "invalid" / "schema")
    path = loa.root / MEMDIR / "facts.yaml"
    path.write_text(path.read_text().replace("confidence: high", "confidence: high  # loa: ignore[schema]"))
    assert loa("lint").exit_code == 0
    _seed(loa, EXAMPLES / "invalid" / "near-duplicate")
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text() + "  lint:\n    rules:\n      near-duplicate: error\n")
    result = loa("lint")
    assert result.exit_code == 1 and "[error]" in result.stdout and "(near-duplicate)" in result.stdout


def test_unknown_rule_in_config_is_a_usage_error(loa: Cli) -> None:
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text() + "  lint:\n    rules:\n      no-such-rule: off\n")
    result = loa("lint")
    assert result.exit_code == 2 and "no-such-rule" in result.stderr


def test_only_named_paths_are_reported(loa: Cli) -> None:
    _seed(loa, EXAMPLES / "invalid" / "schema")
    other = loa.root / MEMDIR / "errors.yaml"
    assert loa("lint", str(other)).exit_code == 0
    assert loa("lint", str(loa.root / MEMDIR / "facts.yaml")).exit_code == 1
