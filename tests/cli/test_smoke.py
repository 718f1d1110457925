from tests.fixtures import Cli


def test_add_then_list(loa: Cli) -> None:
    result = loa("add", "fact", "The CI runs on two cores", "--summary", "CI has two cores")
    assert result.exit_code == 0, result.output
    data = loa.json("list")
    assert [e["summary"] for e in data["entries"]] == ["CI has two cores"]


def test_add_with_a_secret_is_refused_and_changes_nothing(loa: Cli) -> None:
    from tests.fixtures import MEMDIR

    before = {p: p.read_bytes() for p in (loa.root / MEMDIR).rglob("*") if p.is_file()}
    secret = "sk_live_" + "51HqLyjWDarjtT1zdp7dc9aB3dE5fG7h"
    result = loa("add", "fact", f"Payments use the Stripe key {secret} in production")
    assert result.exit_code == 1
    assert "Stripe" in result.stderr and secret not in result.output
    assert f"{MEMDIR}/facts.yaml:" in result.stderr
    assert {p: p.read_bytes() for p in (loa.root / MEMDIR).rglob("*") if p.is_file()} == before


def test_add_with_a_source_that_is_not_an_object_is_refused(loa: Cli) -> None:
    entry = '{"category": "fact", "content": "x", "source": "a"}'
    result = loa("add", "--from-json", "-", "--agent", "me", input=entry)
    assert result.exit_code == 1
    assert "source: expected object, got 'a'" in result.stderr and "unexpected" not in result.stderr
