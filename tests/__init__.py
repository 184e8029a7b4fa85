"""The test suite, laid out like the package."""

from pathlib import Path

#: The top of the checkout (levels/, schemas/ and the package beside tests/).
ROOT = Path(__file__).resolve().parent.parent
