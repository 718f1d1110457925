"""The memory tool's text conventions, as the anthropic SDK's own backend has them: line-numbered views,
folder listings with sizes, ``str_replace`` that needs exactly one match, ``insert`` at a line.

Models are trained on these exact strings, so they are kept; each function is pure. Refusals raise
``MemoryTextError``, which the backend reports to the model as a tool error.
"""

from __future__ import annotations

from collections.abc import Sequence

from loa_memory.errors import UsageError

LINE_NUMBER_WIDTH = 6  # the SDK numbers lines up to 999,999, right-aligned in 6 columns
MAX_LINES = 999_999


class MemoryTextError(UsageError):
    """A memory command that cannot apply to the text (no match, several matches, a line out of range)."""


def format_size(size: int) -> str:
    """``0B``, ``512B``, ``1.5K``, ``4K``, ``2.1M``: the SDK's human-readable sizes."""
    if size <= 0:
        return "0B"
    units = ("B", "K", "M", "G")
    power = min((size.bit_length() - 1) // 10, len(units) - 1)
    scaled = size / (1024**power)
    return f"{int(scaled)}{units[power]}" if scaled == int(scaled) else f"{scaled:.1f}{units[power]}"


def format_listing(path: str, size: int, items: Sequence[tuple[int, str]]) -> str:
    """A folder listing: a header, the folder itself, then ``size<TAB>path`` per item (folders end in /)."""
    header = f"Here're the files and directories up to 2 levels deep in {path}, excluding hidden items:"
    lines = [f"{format_size(size)}\t{path}"] + [f"{format_size(item_size)}\t{path}/{name}" for item_size, name in items]
    return header + "\n" + "\n".join(lines)


def numbered(lines: Sequence[str], first: int) -> str:
    return "\n".join(f"{str(number).rjust(LINE_NUMBER_WIDTH)}\t{line}" for number, line in enumerate(lines, first))


def format_view(path: str, body: str, view_range: Sequence[int] | None = None) -> str:
    """The body with line numbers (lines split on newlines; a final newline shows as an empty last line)."""
    lines = body.split("\n")
    if len(lines) > MAX_LINES:
        raise MemoryTextError(f"File {path} exceeds maximum line limit of 999,999 lines.")
    first = 1
    if view_range and len(view_range) == 2:
        start = max(1, view_range[0]) - 1
        end = len(lines) if view_range[1] == -1 else view_range[1]
        lines, first = lines[start:end], start + 1
    return f"Here's the content of {path} with line numbers:\n" + numbered(lines, first)


def replace_once(body: str, old: str, new: str, path: str) -> tuple[str, int]:
    """``body`` with its one occurrence of ``old`` replaced, and the 0-based line where it was."""
    count = body.count(old)
    if count == 0:
        raise MemoryTextError(f"No replacement was performed, old_str `{old}` did not appear verbatim in {path}.")
    if count > 1:
        lines, start = [], 0
        while (found := body.find(old, start)) != -1:
            lines.append(body.count("\n", 0, found) + 1)
            start = found + 1
        raise MemoryTextError(f"No replacement was performed. Multiple occurrences of old_str `{old}` in lines: "
                              f"{', '.join(map(str, lines))}. Please ensure it is unique")
    found = body.find(old)
    return body[:found] + new + body[found + len(old):], body.count("\n", 0, found)


def replace_snippet(body: str, line: int) -> str:
    """The lines around a replacement at 0-based ``line``, numbered, as the SDK reports an edit."""
    lines = body.split("\n")
    start, end = max(0, line - 2), min(len(lines), line + 3)
    return ("The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
            + numbered(lines[start:end], start + 1))


def insert_lines(body: str, at: int, text: str) -> str:
    """``body`` with ``text`` inserted after line ``at`` (0: at the top); the result ends with a newline."""
    lines = body.split("\n")
    if lines[-1] == "":
        lines.pop()
    if at < 0 or at > len(lines):
        raise MemoryTextError(f"Invalid `insert_line` parameter: {at}. "
                              f"It should be within the range [0, {len(lines)}].")
    lines.insert(at, text.rstrip("\n"))
    joined = "\n".join(lines)
    return joined if joined.endswith("\n") else joined + "\n"
