"""kafka-advisor: a Kafka tuning advisor and configuration linter.

This module stays import-light: `kafka-advisor --version` reads only this file.
"""

__version__ = "0.1.0"
