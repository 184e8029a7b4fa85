"""The README's Python examples (its ``pycon`` blocks) run as doctests: what the section "The
Python library" shows is what the library answers, for fixed seeds."""

from __future__ import annotations

import doctest
import re

from tests import ROOT

_BLOCK = re.compile(r"^```pycon\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def test_the_readme_examples_run() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = _BLOCK.findall(text)
    assert blocks, "no pycon block in README.md"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks, 1):
        test = parser.get_doctest(block, {}, f"README.md block {number}", "README.md", 0)
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert attempted >= 12 and failed == 0
