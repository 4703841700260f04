"""docs/analysis.md quotes what the code produces: bench/docs_figures.py
replays every documented run in a fresh directory (slow: about 1,500 CPU
seconds) and compares the blocks it renders with the docs'; and, fast, the
blocks' markers are all in the docs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
try:
    import docs_figures
finally:
    sys.path.pop(0)


def test_every_figure_has_its_block_in_the_docs():
    text = docs_figures.DOC.read_text()
    for figure in docs_figures.FIGURES:
        found = docs_figures.marked(figure.name).search(text)
        assert found, f"docs/analysis.md lacks the block of {figure.name}"
        assert found.group(0).startswith(f"<!-- figures {figure.name}: hexarena analyze {figure.command} -->")


@pytest.mark.slow
def test_the_docs_quote_what_the_code_produces(tmp_path):
    stale = docs_figures.stale_blocks(runs=tmp_path)
    assert not stale, f"docs/analysis.md differs from the runs in {', '.join(stale)}: run python bench/docs_figures.py"
