"""kafka-advisor: a Kafka tuning advisor and configuration linter.

This module stays import-light: `kafka-advisor --version` reads only this file.
"""

__version__ = "0.1.0"

# typing.TYPE_CHECKING without importing typing (~5 ms of every start, and nothing on the lint
# path needs it at run time): type checkers take any `TYPE_CHECKING` as true, so the imports a
# module guards with it are theirs alone; annotations are never evaluated
# (`from __future__ import annotations` everywhere).
TYPE_CHECKING = False
