"""The pages ``make docs`` makes as it builds (docs/hooks.py): the front page from the
README, the guide's pages in the nav, the CLI reference every subcommand, the HTTP API
reference every operation of the OpenAPI document and every schema."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("mkdocs")


@pytest.fixture(scope="module")
def hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_front_page_is_the_readme_and_the_guide_is_in_the_nav(hooks):
    front = hooks.front_page(hooks.readme_sections())
    assert front.startswith("# kingsolve\n") and ">>> import kingsolve" in front
    assert "](guide/library.md)" in front and "](docs/" not in front
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in sorted((ROOT / "docs" / "guide").glob("*.md")):
        assert f"guide/{page.name}" in nav, page.name
    library = (ROOT / "docs" / "guide" / "library.md").read_text(encoding="utf-8")
    assert library.startswith("# Library\n") and ">>> import kingsolve" in library


def test_links_into_docs_are_made_relative_to_the_page(hooks):
    text = "see [`docs/rules.md`](docs/rules.md) and [the log](CHANGELOG.md)"
    assert hooks._relinked(text, "guide/values.md") == \
        "see [`docs/rules.md`](../rules.md) and [the log](../changelog.md)"
    assert hooks._relinked(text, "index.md") == \
        "see [`docs/rules.md`](rules.md) and [the log](changelog.md)"


def test_the_cli_reference_has_every_subcommand_and_its_flags(hooks):
    from kingsolve_cli import COMMANDS

    page = hooks.cli_page()
    for name in COMMANDS:
        assert f"\n## kingsolve {name}\n" in page
    assert "--rate-limit RATE" in page and "--exact" in page


def test_the_http_reference_has_every_operation_and_schema(hooks):
    doc = hooks.openapi_document()
    page = hooks.http_api_page(doc)
    for path, operations in doc["paths"].items():
        for method in operations:
            assert f"### {method.upper()} `{path}`" in page
    for name in doc["components"]["schemas"]:
        assert f"\n### {name}\n" in page
    # a field's limits and values come from the schema
    assert "| `ms` |" in page and '`"italian"`' in page


def test_a_doctest_becomes_a_code_block_ending_at_its_blank_line():
    spec = importlib.util.spec_from_file_location("griffe_doctests",
                                                  ROOT / "docs" / "griffe_doctests.py")
    pytest.importorskip("griffe")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "Per seat.\n\n>>> d['N']['may']\nTrue\n\nMore prose."
    assert module.fence_doctests(text) == \
        "Per seat.\n\n```pycon\n>>> d['N']['may']\nTrue\n```\n\nMore prose."
