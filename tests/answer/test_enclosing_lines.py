"""An edit read under the lines of its file that enclose it: a probe's key above the check that changes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.answer.cues.action import Action, enclosing_lines, relative_paths
from loa_memory.answer.cues.classes import action_classes

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: api
          livenessProbe:
            httpGet:
              path: /livez
          readinessProbe:
            httpGet:
              path: /ready
"""


def test_the_keys_above_an_edit_come_with_it() -> None:
    assert enclosing_lines(DEPLOYMENT, "path: /livez", "path: /health/db") == (
        "spec:\n  template:\n    spec:\n      containers:\n        - name: api\n          livenessProbe:\n"
        "            httpGet:\n              path: /health/db")


def test_siblings_above_are_left_out() -> None:
    """The readiness probe's check sits under its own key, not the liveness probe's."""
    text = enclosing_lines(DEPLOYMENT, "path: /ready", "path: /health/db")
    assert "livenessProbe" not in text
    assert text.endswith("          readinessProbe:\n            httpGet:\n              path: /health/db")


def test_nothing_when_the_old_text_is_not_in_the_file() -> None:
    assert enclosing_lines(DEPLOYMENT, "path: /gone", "path: /health/db") == ""
    assert enclosing_lines(DEPLOYMENT, "", "path: /health/db") == ""


def _classes(source: str, old: str, new: str) -> set[str]:
    action = Action("edit", ("k8s/api.yaml",), new, old, enclosing=enclosing_lines(source, old, new))
    return set(action_classes(action, relative_paths(action, Path("/repo"))))


def test_a_minimal_edit_of_the_liveness_check_is_classed() -> None:
    assert "liveness-dependency" in _classes(DEPLOYMENT, "path: /livez", "path: /health/db")
    assert "liveness-dependency" not in _classes(DEPLOYMENT, "path: /ready", "path: /health/db")
    assert "liveness-dependency" not in _classes(DEPLOYMENT, "path: /livez", "path: /livez/v2")
    # without the file, the same edit is only its own two lines
    bare = Action("edit", ("k8s/api.yaml",), "path: /health/db", "path: /livez")
    assert "liveness-dependency" not in action_classes(bare, ("k8s/api.yaml",))


_LINE = st.tuples(st.integers(0, 6), st.text("abc:-", min_size=1, max_size=6)).map(lambda p: " " * p[0] + p[1])


@settings(max_examples=300, derandomize=True)
@given(st.lists(_LINE, min_size=1, max_size=12), st.data())
def test_the_enclosing_lines_are_the_files_own_and_step_outwards(lines: list[str], data: st.DataObject) -> None:
    source = "\n".join(lines) + "\n"
    at = data.draw(st.integers(0, len(lines) - 1))
    old = lines[at].strip()
    new = data.draw(st.text("xyz", min_size=1, max_size=4))
    text = enclosing_lines(source, old, new)
    start = source.find(old)
    first = source[source.rfind("\n", 0, start) + 1:start]
    assert text.endswith(first + new)
    above = text[:len(text) - len(first + new)].splitlines()
    widths = [len(line) - len(line.lstrip()) for line in above]
    assert all(line in lines for line in above)
    assert widths == sorted(set(widths))  # each a step outwards from the one below it
    assert all(w < len(first) - len(first.lstrip()) for w in widths) or not above
