from tests.fixtures import Cli


def test_add_then_list(loa: Cli) -> None:
    result = loa("add", "fact", "The CI runs on two cores", "--summary", "CI has two cores")
    assert result.exit_code == 0, result.output
    data = loa.json("list")
    assert [e["summary"] for e in data["entries"]] == ["CI has two cores"]
