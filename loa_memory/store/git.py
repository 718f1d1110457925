"""Every git operation loa-memory performs; the only module that imports GitPython.

Failures become ``GitError`` with a hint; GitPython is imported lazily (it costs ~150 ms).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loa_memory.errors import GitError
from loa_memory.store.ids import ID_PATTERN


@functools.cache
def _git_module() -> Any:
    try:
        import git
    except ImportError as exc:  # pragma: no cover - GitPython is a dependency
        raise GitError(f"GitPython is not usable: {exc}", hint="pip install GitPython") from None
    return git


def repo(root: Path) -> Any:
    """The ``git.Repo`` at ``root``."""
    git = _git_module()
    try:
        return git.Repo(root)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise GitError(f"{root} is not a git repository", hint="run `git init` first") from None


def run(root: Path, *args: str) -> str:
    """``git ARGS`` in ``root``; its stdout."""
    git = _git_module()
    try:
        return str(repo(root).git.execute(["git", *args]))
    except git.GitCommandError as exc:
        detail = (exc.stderr or "").strip().removeprefix("stderr: ").strip("' \n")
        raise GitError(f"git {' '.join(args)} failed: {detail or exc}",
                       hint="check the repository state (`git status`)") from None


def hooks_dir(root: Path) -> Path:
    """Where git looks for hooks (honours ``core.hooksPath``)."""
    path = Path(run(root, "rev-parse", "--git-path", "hooks"))
    return path if path.is_absolute() else root / path


def set_config(root: Path, key: str, value: str) -> None:
    run(root, "config", "--local", key, value)


def get_config(root: Path, key: str) -> str | None:
    try:
        return run(root, "config", "--get", key) or None
    except GitError:
        return None


def _quiet(root: Path, *args: str) -> str | None:
    """``git ARGS`` output, or None when git says no (not a repository, unknown path or ref)."""
    try:
        return run(root, *args)
    except GitError:
        return None


DIRTY_LIMIT = 50


def work_state(root: Path) -> dict[str, Any] | None:
    """The work tree's state for a handoff: branch, HEAD sha, and changed or untracked files (at most
    ``DIRTY_LIMIT``); None outside a git repository."""
    try:
        repo(root)
    except GitError:
        return None
    state: dict[str, Any] = {}
    branch = _quiet(root, "symbolic-ref", "--short", "-q", "HEAD")
    if branch:
        state["branch"] = branch.strip()
    head = head_commit(root)
    if head:
        state["commit"] = head
    status = _quiet(root, "status", "--porcelain=v1", "-z", "--untracked-files=all") or ""
    files: list[str] = []
    records = status.split("\0")
    index = 0
    while index < len(records):
        record = records[index]
        index += 1
        if len(record) < 4:
            continue
        files.append(record[3:])
        if record[0] in "RC":  # a rename or copy is followed by its source path
            index += 1
    state["dirty"] = bool(files)
    if files:
        state["dirty_files"] = sorted(set(files))[:DIRTY_LIMIT]
    return state


def head_commit(root: Path) -> str | None:
    """HEAD's sha, or None outside a repository or before the first commit."""
    try:
        repo(root)
    except GitError:
        return None
    head = _quiet(root, "rev-parse", "-q", "--verify", "HEAD")
    return head.strip() if head else None


def is_committed(root: Path, rel: str) -> bool:
    """Whether ``rel`` (a file or folder) exists in HEAD; False outside a repository or before any commit."""
    try:
        repo(root)
    except GitError:
        return False
    return bool(_quiet(root, "--literal-pathspecs", "ls-tree", "--name-only", "HEAD", "--", rel))


def blame_commits(root: Path, rel: str, start: int, end: int) -> list[str]:
    """The commits that last changed lines ``start``..``end`` of ``rel`` as it is in the work tree
    (uncommitted lines left out)."""
    out = run(root, "--literal-pathspecs", "blame", "--porcelain", "-L", f"{start},{end}", "--", rel)
    shas: list[str] = []
    for line in out.splitlines():
        head = line.split(" ", 1)[0]
        is_header = len(head) in (40, 64) and " " in line and all(c in "0123456789abcdef" for c in head)
        if is_header and head.strip("0") and head not in shas:  # all zeros: not committed yet
            shas.append(head)
    return shas


def path_commits(root: Path, rel: str, limit: int, *, follow: bool = False) -> list[str]:
    """The last ``limit`` commits that touched ``rel``, newest first (``follow``: across renames)."""
    args = ["--literal-pathspecs", "log", f"-n{limit}", "--format=%H", *(["--follow"] if follow else []),
            "HEAD", "--", rel]
    return [sha for sha in run(root, *args).split() if sha]


def commit_messages(root: Path, shas: list[str]) -> dict[str, str]:
    """Full commit messages by sha."""
    if not shas:
        return {}
    out = run(root, "log", "--no-walk=unsorted", "--format=%H%x00%B%x1e", *shas)
    messages: dict[str, str] = {}
    for record in out.split("\x1e"):
        sha, _, message = record.strip("\n").partition("\0")
        if sha:
            messages[sha] = message.strip()
    return messages


@dataclass(frozen=True)
class FileMerge:
    text: str
    clean: bool


def merge_file(ours: Path, base: Path, theirs: Path, name: str = "") -> FileMerge:
    """``git merge-file -p``: git's own line merge of three files (conflict markers where they clash)."""
    git = _git_module()
    labels = ["-L", f"ours{':' + name if name else ''}", "-L", "base", "-L", "theirs"]
    status, out, err = git.cmd.Git().execute(["git", "merge-file", "-p", *labels, str(ours), str(base), str(theirs)],
                                             with_extended_output=True, with_exceptions=False,
                                             strip_newline_in_stdout=False)
    if status < 0:
        raise GitError(f"git merge-file failed: {err}", hint="is git installed?")
    return FileMerge(str(out), status == 0)


def register_merge_driver(root: Path, command: str) -> bool:
    """Set ``merge.loa-memory.*`` in the repository's config; True if it changed."""
    if get_config(root, "merge.loa-memory.driver") == command:
        return False
    set_config(root, "merge.loa-memory.name", "loa-memory: merge memory entries by id, field by field")
    set_config(root, "merge.loa-memory.driver", command)
    return True


def merge_base(root: Path, a: str, b: str = "HEAD") -> str:
    return run(root, "merge-base", a, b).strip()


def files_at(root: Path, rev: str, folders: list[str]) -> dict[str, str]:
    """The text of every file under ``folders`` at revision ``rev`` (path relative to the root → text), read
    with one ``git cat-file --batch``: a grimoire of one file per entry holds thousands of files."""
    listed = run(root, "ls-tree", "-r", rev, "--", *folders)
    wanted: list[tuple[str, str]] = []  # (blob, path)
    for line in listed.splitlines():
        meta, _tab, path = line.partition("\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == "blob" and path.endswith((".yaml", ".yml", ".md")):
            wanted.append((parts[2], path))
    if not wanted:
        return {}
    import subprocess

    stdin = "".join(f"{blob}\n" for blob, _path in wanted).encode()
    try:
        done = subprocess.run(["git", "-C", str(root), "cat-file", "--batch"], input=stdin, capture_output=True,
                              check=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"git cat-file failed: {exc}", hint="check the repository state (`git status`)") from None
    data, pos, texts = done.stdout, 0, {}
    for _blob, path in wanted:
        end = data.index(b"\n", pos)
        header = data[pos:end].split()
        if len(header) != 3:  # "<blob> missing": no content follows
            pos = end + 1
            continue
        size = int(header[2])
        texts[path] = data[end + 1:end + 1 + size].decode("utf-8", errors="replace")
        pos = end + 1 + size + 1
    return texts


# Plain subprocess calls for the lint path: importing GitPython costs ~150 ms, too much for a pre-commit hook.

def _plain(root: Path, *args: str, stdin: str | None = None) -> tuple[int, str] | None:
    """(exit status, stdout) of ``git ARGS`` in ``root``; None when git cannot run there."""
    import subprocess

    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False, timeout=120,
                              input=stdin.encode("utf-8") if stdin is not None else None)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode > 1 or (done.returncode == 1 and done.stderr.strip()):
        return None
    return done.returncode, done.stdout.decode("utf-8", errors="replace")


def staged_listing(root: Path) -> tuple[str, dict[str, str]] | None:
    """(a key of the index's content, {path: blob id} of what it holds); None outside a repository."""
    import hashlib

    out = _plain(root, "ls-files", "--stage", "-z")
    if out is None:
        return None
    listing = {}
    for record in out[1].split("\0"):
        head, tab, path = record.partition("\t")
        if tab:
            listing[path] = head.split(" ")[1] if head.count(" ") >= 2 else head
    return hashlib.blake2b(out[1].encode("utf-8"), digest_size=16).hexdigest(), listing


def grep_words(root: Path, words: list[str], rev: str | None, exclude: list[str],
               paths: list[str] | None = None) -> dict[str, set[str]] | None:
    """Where each of ``words`` occurs as a whole word ({word: {file, ...}}; absent: nowhere) in the staged files
    (``rev=None``) or in commit ``rev``, outside the ``exclude`` folders, only in ``paths`` if given; None when
    git cannot tell."""
    if not words or paths == []:
        return {}
    grep = ["grep", *(["--cached"] if rev is None else []), "-I", "-o", "-w", "-F", "-z", "-f", "-",
            *([rev] if rev else [])]
    if paths:
        args = ["--literal-pathspecs", *grep, "--", *paths]
    else:
        args = [*grep, "--", ".", *[f":(exclude){folder}" for folder in exclude]]
    out = _plain(root, *args, stdin="\n".join(words) + "\n")
    if out is None:
        return None
    wanted = set(words)
    found: dict[str, set[str]] = {}
    for line in out[1].split("\n"):
        path, _, word = line.partition("\0")
        if word in wanted:
            found.setdefault(word, set()).add(path.split(":", 1)[1] if rev and path.startswith(f"{rev}:") else path)
    return found


_ADDED_ID = re.compile(rf"^\+(?:-[ \t]+|[ \t]*)id:[ \t]*['\"]?({ID_PATTERN})", re.M)


def first_commits(root: Path, folders: list[str], since: str | None = None) -> tuple[str, dict[str, str]] | None:
    """(HEAD, {memory id: the first commit that added it}) from the history of ``folders``, oldest first;
    with ``since``, only the commits after it (None outside a repository or before the first commit)."""
    head = _plain(root, "rev-parse", "--verify", "-q", "HEAD")
    if head is None or head[0] != 0:
        return None
    span = f"{since}..HEAD" if since else "HEAD"
    out = _plain(root, "log", "--reverse", "--no-color", "--no-ext-diff", "--format=%x00%H", "-p", "-U0", span,
                 "--", *folders)
    if out is None:
        return None
    found: dict[str, str] = {}
    for chunk in out[1].split("\0")[1:]:
        sha, _, patch = chunk.partition("\n")
        for match in _ADDED_ID.finditer(patch):
            found.setdefault(match.group(1), sha.strip())
    return head[1].strip(), found


def is_ancestor(root: Path, older: str, newer: str = "HEAD") -> bool:
    out = _plain(root, "merge-base", "--is-ancestor", older, newer)
    return out is not None and out[0] == 0


def merging_rev(root: Path) -> str | None:
    """The commit being merged, rebased or cherry-picked into HEAD right now, as a merge driver sees it (None:
    none, or git does not say): ``git merge`` names it in ``GITHEAD_<sha>``; a rebase in ``rebase-merge/done``."""
    import os

    heads = [name[len("GITHEAD_"):] for name in os.environ if name.startswith("GITHEAD_")]
    if len(heads) == 1:
        return heads[0]
    found = _plain(root, "rev-parse", "--git-path", "rebase-merge/done")
    if found is not None and found[0] == 0:
        done = Path(found[1].strip())
        done = done if done.is_absolute() else root / done
        try:
            steps = done.read_text("utf-8").split("\n")
        except OSError:
            steps = []
        last = next((step.split() for step in reversed(steps) if step.strip()), [])
        if len(last) >= 2 and last[0] in ("pick", "p", "reword", "r", "edit", "e", "squash", "s", "fixup", "f"):
            return last[1]
    for name in ("MERGE_HEAD", "REBASE_HEAD", "CHERRY_PICK_HEAD"):
        head = _plain(root, "rev-parse", "-q", "--verify", f"{name}^{{commit}}")
        if head is not None and head[0] == 0 and head[1].strip():
            return head[1].strip()
    return None


def grep_matches(root: Path, rev: str, pattern: str, folders: list[str]) -> list[tuple[str, str]]:
    """(path, matched text) of every match of the extended regular expression ``pattern`` in the files under
    ``folders`` at ``rev`` (empty when nothing matches or git cannot tell)."""
    found = _plain(root, "grep", "-o", "-I", "-E", pattern, rev, "--", *folders)
    if found is None or found[0] != 0:
        return []
    matches = []
    for line in found[1].splitlines():  # "<rev>:<path>:<match>"
        _rev, _sep, rest = line.partition(":")
        path, _sep, text = rest.rpartition(":")
        matches.append((path, text))
    return matches


def unstaged_paths(root: Path, paths: list[str]) -> list[str]:
    """Those of ``paths`` whose work-tree file differs from the index (edits not staged yet)."""
    if not paths:
        return []
    out = _plain(root, "diff", "--name-only", "-z", "--no-ext-diff", "--", *paths)
    return [name for name in out[1].split("\0") if name] if out is not None else []


def stage(root: Path, paths: list[str]) -> None:
    """``git add`` ``paths`` (relative to ``root``)."""
    if paths:
        run(root, "add", "--", *paths)


MERGE_DRIVER = "merge.loa-memory.driver"


def merge_driver_command() -> str:
    """The merge driver command for this installation: this interpreter, so that it works without a PATH."""
    import shlex
    import sys

    return f"{shlex.quote(sys.executable)} -m loa_memory merge-driver %O %A %B %L %P"


@dataclass(frozen=True)
class DriverSetup:
    """What ``ensure_merge_driver`` did: ``changed`` when it wrote the config, ``warning`` when it could not."""

    changed: bool = False
    warning: str | None = None


def ensure_merge_driver(root: Path) -> DriverSetup:
    """Configure loa-memory's merge driver in ``root``'s local git config unless a working one is there (git
    does not version ``.git/config``, so every clone needs it, where ``.gitattributes`` travels with the
    repository). Quiet and idempotent: an existing driver whose interpreter still exists is kept, whichever
    installation wrote it. The warning, when it could not be written, holds the exact command that fixes it."""
    import os
    import shlex

    out = _plain(root, "config", "--get", MERGE_DRIVER)
    if out is None:
        return DriverSetup()  # not a git repository: nothing to merge
    current = out[1].strip()
    try:
        program = shlex.split(current)[0] if current else ""
    except ValueError:
        program = ""
    if program and ((os.path.isabs(program) and os.access(program, os.X_OK)) or program == "loa-memory"):
        return DriverSetup()
    command = merge_driver_command()
    name = _plain(root, "config", "--local", "merge.loa-memory.name",
                  "loa-memory: merge memory entries by id, field by field")
    done = _plain(root, "config", "--local", MERGE_DRIVER, command)
    if name is None or done is None or done[0] != 0:
        return DriverSetup(warning=f"loa-memory: the merge driver for memory files is not configured in this "
                                   f"clone; run: git config {MERGE_DRIVER} {shlex.quote(command)}")
    return DriverSetup(changed=True)
