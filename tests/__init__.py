"""The test suite, laid out like the package."""

from pathlib import Path

#: The top of the checkout (levels/, schemas/ and the package beside tests/).
ROOT = Path(__file__).resolve().parent.parent


def level_files(game: str) -> list[Path]:
    """The sample levels in ``levels/`` of one game (the ``game`` field of each file)."""
    import json

    return [
        path
        for path in sorted((ROOT / "levels").glob("*.json"))
        if json.loads(path.read_text(encoding="utf-8")).get("game") == game
    ]
