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


def test_edits_are_made_in_turn_as_the_editor_makes_them() -> None:
    from loa_memory.answer.cues.action import edited

    assert edited("a b a", [("a", "x", False)]) == "x b a"
    assert edited("a b a", [("a", "x", True)]) == "x b x"
    assert edited("a b", [("a", "x", False), ("x b", "y", False)]) == "y"  # the second sees the first's result
    assert edited("a b", [("c", "x", False)]) == ""
    assert edited("a b", [("", "x", False)]) == ""


TENANTS = """package cache

import "sync"

type TenantCache struct {
\tmu    sync.Mutex
\titems map[string]*Tenant
}

func (c *TenantCache) Put(id string, t *Tenant) {
\tc.mu.Lock()
\tdefer c.mu.Unlock()
\tc.items[id] = t
}
"""


def test_a_go_map_written_in_a_file_that_takes_a_lock_is_not_the_mistake() -> None:
    from loa_memory.answer.cues.action import edited

    old, new = "\tc.items[id] = t", "\tc.items[strings.ToLower(id)] = t"
    in_file = Action("edit", ("internal/cache/tenants.go",), new, old, after=edited(TENANTS, [(old, new, False)]))
    assert "go-map-shared" not in action_classes(in_file, ("internal/cache/tenants.go",))
    unlocked = TENANTS.replace("\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n", "").replace("\tmu    sync.Mutex\n", "")
    bare = Action("edit", ("internal/cache/tenants.go",), new, old, after=edited(unlocked, [(old, new, False)]))
    assert "go-map-shared" in action_classes(bare, ("internal/cache/tenants.go",))
    unread = Action("edit", ("internal/cache/tenants.go",), new, old)  # the file could not be read: its text alone
    assert "go-map-shared" in action_classes(unread, ("internal/cache/tenants.go",))
