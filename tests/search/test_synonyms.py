"""Synonym groups in lexical search: the table, the query expansion, coverage credit, and project groups."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from loa_memory.search import synonyms
from loa_memory.search.index import SYNONYM_CREDIT, build_query
from tests.fixtures import Cli


def _config_with(loa: Cli, block: str) -> None:
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text("utf-8").replace("  retrieval:\n", "  retrieval:\n" + block), "utf-8")


def test_table_is_symmetric_and_stemmed() -> None:
    table = synonyms.table()
    deploy, ship, production = synonyms._stems(("deploy", "ship", "production"))
    assert deploy == "deploi" and production == "product"  # Porter stems, as the index stores words
    assert deploy in table[ship] and ship in table[deploy] and production in table["prod"]
    for stem, others in table.items():
        assert stem not in others
        assert all(stem in table[other] for other in others)


@given(st.lists(st.lists(st.from_regex(r"[a-z]{3,10}", fullmatch=True), min_size=2, max_size=4), max_size=5))
def test_project_groups_join_the_table(groups: list[list[str]]) -> None:
    table = synonyms.table(groups)
    base = synonyms.table()
    for stem, others in base.items():
        assert set(others) <= set(table[stem])
    for group in groups:
        stems = set(synonyms._stems(tuple(group)))
        for stem in stems:
            assert stems - {stem} <= set(table.get(stem, ()))


def test_query_searches_synonyms_at_a_lower_boost() -> None:
    parsed = build_query("ship it to prod", synonyms.table())
    assert parsed is not None
    assert parsed.words == ("ship", "prod")
    boosts = {(t.fieldname, t.text): t.boost for t in parsed.query.subqueries}
    assert boosts[("summary", "ship")] == 1.0
    assert boosts[("summary", "deploi")] < 1.0
    assert "deploi" in parsed.related["ship"] and "product" in parsed.related["prod"]
    assert build_query("ship it", {}).related == {}  # type: ignore[union-attr]


def test_lexical_search_finds_other_words_but_ranks_exact_words_first(loa: Cli) -> None:
    assert loa("add", "procedure", "Deploy to production only after the smoke tests pass",
               "--summary", "Deploy to production after smoke tests").exit_code == 0
    assert loa("add", "procedure", "Ship to prod from the release branch only",
               "--summary", "Ship to prod from the release branch").exit_code == 0
    assert loa("add", "fact", "The office plants are watered on Mondays", "--summary", "Plant watering").exit_code == 0
    results = loa.json("search", "ship to prod", "--mode", "lexical", "--explain")["results"]
    summaries = [r["summary"] for r in results]
    assert summaries[:2] == ["Ship to prod from the release branch", "Deploy to production after smoke tests"]
    assert "Plant watering" not in summaries
    coverage = results[1]["explain"]["lexical"]["coverage"]
    assert 0 < coverage <= SYNONYM_CREDIT + 1e-9
    assert results[0]["explain"]["lexical"]["coverage"] == 1.0


def test_project_synonyms_from_the_config(loa: Cli) -> None:
    assert loa("add", "fact", "Gandalf is the build server that runs the nightly jobs",
               "--summary", "Gandalf runs the nightly jobs").exit_code == 0
    assert loa.json("search", "wizard", "--mode", "lexical")["results"] == []
    _config_with(loa, "    synonyms:\n      - [gandalf, wizard]\n")
    assert [r["summary"] for r in loa.json("search", "wizard", "--mode", "lexical")["results"]] == \
        ["Gandalf runs the nightly jobs"]


def test_bad_synonyms_config_is_named_at_its_line(loa: Cli) -> None:
    _config_with(loa, "    synonyms: [lonely]\n")
    result = loa("search", "anything")
    assert result.exit_code == 2
    assert ".loa.config.yaml:" in result.stderr and "synonyms" in result.stderr
