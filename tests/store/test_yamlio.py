from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.store import yamlio

LIST = """# header comment
- id: MEM-20260101-001
  content: |
    first line

    - not an item
  tags: [a, b]
# between items

- id: MEM-20260101-002
  content: two
"""


def test_split_items_keeps_trivia_outside_items() -> None:
    split = yamlio.split_items(LIST)
    assert split.items is not None
    assert [item.line for item in split.items] == [1, 9]
    assert split.items[0].text.endswith("tags: [a, b]\n")
    assert split.items[1].text == "- id: MEM-20260101-002\n  content: two\n"


@pytest.mark.parametrize("text", ["[{id: x}]\n", "id: x\n", "---\n- a\n---\n- b\n"])
def test_split_items_declines_other_shapes(text: str) -> None:
    assert yamlio.split_items(text).items is None


def test_loader_uses_yaml_1_2_scalars_and_keeps_timestamps_as_strings() -> None:
    data = yamlio.load_text("a: yes\nb: 2026-01-01T10:00:00Z\nc: true\nd: 0o17\ne: 1.5\nf: ~\ng: 2026-01-01\n")
    assert data == {"a": "yes", "b": "2026-01-01T10:00:00Z", "c": True, "d": 15, "e": 1.5, "f": None,
                    "g": "2026-01-01"}


@pytest.mark.parametrize(("text", "message"), [
    ("a: !!python/object/apply:os.system ['echo pwned']\n", "not allowed"),
    ("a: 1\na: 2\n", "duplicate key"),
    ("a: [1, 2\n", "expected"),
])
def test_loader_rejects_unsafe_or_malformed_yaml(text: str, message: str) -> None:
    with pytest.raises(yamlio.YamlSyntaxError) as info:
        yamlio.load_text(text, path="f.yaml", line_offset=10)
    assert message in info.value.message
    assert info.value.line is not None and info.value.line > 10


texts = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufeff\x85\u2028\u2029"),
                min_size=1, max_size=80)


@settings(max_examples=150, deadline=None)
@given(content=st.lists(texts, min_size=1, max_size=4).map("\n".join), summary=texts,
       tags=st.lists(st.from_regex(r"[a-z0-9-]{1,8}", fullmatch=True), max_size=3))
def test_dump_item_round_trips(content: str, summary: str, tags: list[str]) -> None:
    data = {"id": "MEM-20260101-001", "content": content, "summary": summary, "tags": tags,
            "confidence": 0.9, "source": {"session_id": "s", "timestamp": "2026-01-01T00:00:00Z"}}
    text = yamlio.dump_item(data)
    assert yamlio.load_text(text) == [data]
    assert yamlio.split_items(text).items is not None


def test_patch_item_keeps_comments_and_untouched_lines() -> None:
    item = "- id: MEM-20260101-001  # the first\n  content: 'x'  # quoted\n  tags: [a]\n"
    patched = yamlio.patch_item(item, {"superseded_by": "MEM-20260101-002"})
    assert patched == item + "  superseded_by: MEM-20260101-002\n"
