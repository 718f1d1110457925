"""``lint`` and ``scan-secrets``: findings as text, JSON, GitHub annotations or SARIF."""

from __future__ import annotations

from pathlib import Path

import click

from loa_memory.cli.common import State, emit, pass_state, setup_merge_driver
from loa_memory.errors import LoaError

REPORT_FORMATS = ("text", "json", "github", "sarif")


def _rule_docs() -> dict[str, str]:
    from loa_memory.lint import RULES_BY_ID
    from loa_memory.lint.engine import EXTRA_RULES

    return {rule_id: module.__doc__ or "" for rule_id, module in {**RULES_BY_ID, **EXTRA_RULES}.items()}


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(REPORT_FORMATS), default=None,
              help="text (path:line:col: [severity] message (rule)), json, github annotations, sarif 2.1.0.")
@click.option("--fix", is_flag=True, help="Apply safe mechanical fixes (back-links, expires_at, tags, "
              "archiving expired entries) and report each one.")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option("--base", metavar="REF", help="Also check against git history since REF (governance, id collisions).")
@click.option("--rule", "rules", multiple=True, help="Run only this rule (repeatable).")
@click.option("--world", "worlds", multiple=True, help="Only these worlds.")
@click.option("--list-rules", is_flag=True, help="List the rules with their default severity and exit.")
@click.pass_context
def lint(ctx: click.Context, paths: tuple[Path, ...], fmt: str | None, fix: bool, strict: bool, base: str | None,
         rules: tuple[str, ...], worlds: tuple[str, ...], list_rules: bool) -> None:
    """Check memory files (all of them, or PATHS). Exit 0 clean, 1 errors (or warnings with --strict)."""
    from loa_memory.lint import LintOptions, run_lint
    from loa_memory.render.lint import REPORTER_BY_NAME, fixes_text, lint_record

    state: State = ctx.obj
    config = state.config()
    fmt = fmt or (state.fmt if state.fmt in REPORT_FORMATS else "text")
    if list_rules:
        from loa_memory.lint.docs import rule_list
        from loa_memory.render.lint import rules_text

        emit(state, fmt, {"rules": rule_list(config)}, rules_text)
        return
    options = LintOptions(paths=[str(p) for p in paths], rules=rules, worlds=worlds, base=base, strict=strict)
    fixes = None
    if fix:
        from loa_memory.write.fix import fix_grimoire

        fixes, result = fix_grimoire(config, options)
    else:
        result = run_lint(config, options)
    if fmt == "json":
        emit(state, fmt, lint_record(result.findings, result.files, fixes), str)
    else:
        if fmt == "text" and fixes:
            click.echo(fixes_text(fixes))
        output = REPORTER_BY_NAME[fmt](result.findings, result.files, _rule_docs())
        if not output and fmt == "text":
            output = f"no problems in {result.files} memory file(s)"
        if output:
            click.echo(output)
    setup_merge_driver(config.root)
    ctx.exit(result.exit_code(strict))


@click.command("scan-secrets")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(REPORT_FORMATS), default=None, help="Output format.")
@click.option("--no-pii", is_flag=True, help="Only credentials, not personal data.")
@click.option("--commit-message", is_flag=True,
              help="FILES are commit messages, as git hands them to a commit-msg hook: what is below the "
                   "scissors line is skipped, personal data counts only in memory trailers, and a finding "
                   "refuses the commit.")
@click.pass_context
def scan_secrets(ctx: click.Context, files: tuple[Path, ...], fmt: str | None, no_pii: bool,
                 commit_message: bool) -> None:
    """Scan any text FILES for secrets and personal data; exit 1 on a finding. Values are never printed."""
    from loa_memory.render.lint import REPORTER_BY_NAME
    from loa_memory.secrets.files import scan_files

    state: State = ctx.obj
    try:
        config = state.config()
    except LoaError:
        config = None  # scanning needs no grimoire: outside one, defaults apply
    if config is not None:
        setup_merge_driver(config.root)
    if commit_message:
        from loa_memory.repo.message import scan_messages

        findings, skipped = scan_messages(list(files), config)
    elif config is not None and not no_pii:
        from loa_memory.lint.engine import scan_secret_paths

        findings, skipped = scan_secret_paths(config, list(files))
    else:
        allowlist = list(config.secrets.allowlist or []) if config else []
        findings, skipped = scan_files(list(files), allowlist=allowlist, include_pii=not no_pii,
                                       root=config.root if config else None)
    for note in skipped:
        click.echo(f"skipped {note}", err=True)
    fmt = fmt or (state.fmt if state.fmt in REPORT_FORMATS else "text")
    output = REPORTER_BY_NAME[fmt](findings, len(files), {"secret": _rule_docs().get("secret", "")})
    if output:
        click.echo(output)
    if commit_message and findings and fmt == "text":
        from loa_memory.repo.message import REFUSED_HINT

        click.echo(REFUSED_HINT, err=True)
    ctx.exit(1 if findings else 0)


__all__ = ["lint", "pass_state", "scan_secrets"]


@click.command()
@click.argument("revisions")
@click.option("--format", "fmt", type=click.Choice(["markdown", "json", "yaml"]), default=None,
              help="markdown (default, for a PR comment) or json.")
@click.option("--world", "worlds", multiple=True, help="Only these worlds (default: all).")
@click.pass_context
def review(ctx: click.Context, revisions: str, worlds: tuple[str, ...], fmt: str | None) -> None:
    """What REVISIONS (BASE..HEAD) do to memory: added, superseded, archived, score changes, lint findings."""
    from loa_memory.render.review import review_markdown
    from loa_memory.repo.review import review as run_review
    from loa_memory.repo.review import review_record

    state: State = ctx.obj
    data = review_record(run_review(state.config(), revisions, worlds))
    fmt = fmt or ("markdown" if state.fmt == "text" else state.fmt)
    emit(state, "text" if fmt == "markdown" else fmt, data, review_markdown)
