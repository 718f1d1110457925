"""The commit-msg check: credentials anywhere in the message, personal data only in memory trailers."""

from __future__ import annotations

from pathlib import Path

import pytest

from loa_memory.repo.message import message_hits, message_text
from tests.fixtures import Cli

TOKEN = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
SCISSORS = "# ------------------------ >8 ------------------------"


@pytest.mark.parametrize(
    ("message", "kinds"),
    [
        ("Fix the retry\n\nSigned-off-by: Ann Lee <ann.lee@acme-corp.io>\n", []),
        (
            "Fix the retry\n\nCo-authored-by: Bo <bo.chen@acme-corp.io>\nLearning: ask ann.lee@acme-corp.io first\n",
            ["email"],
        ),
        ("Fix the retry\n\nLearning: the job needs a token,\n  here it is ann.lee@acme-corp.io\n", ["email"]),
        (f"Fix the retry with {TOKEN}\n", ["github-token"]),
        (f"Fix the retry\n{SCISSORS}\ndiff --git a/x b/x\n+token = {TOKEN}\n", []),
        ("Pass timeout=30 to requests.get\n\nDecision: retry three times with jitter\n", []),
    ],
)
def test_what_the_commit_msg_check_refuses(message: str, kinds: list[str]) -> None:
    assert [hit.kind for hit in message_hits(message_text(message))] == kinds


def test_a_refusal_names_the_place_and_never_the_value(loa: Cli, tmp_path: Path) -> None:
    path = tmp_path / "COMMIT_EDITMSG"
    path.write_text(f"Deploy\n\nLearning: the CI token is {TOKEN}\n")
    result = loa("scan-secrets", "--commit-message", str(path))
    assert result.exit_code == 1
    assert f"{path}:3:" in result.stdout and "GitHub token ghp_" in result.stdout
    assert "commit refused" in result.stderr and TOKEN not in result.output
    path.write_text("Deploy\n\nLearning: the CI token lives in the vault\n")
    assert loa("scan-secrets", "--commit-message", str(path)).exit_code == 0
