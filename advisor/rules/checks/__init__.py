"""Checks a JMESPath predicate cannot express, one module per domain; importing this package
registers them (rules name them in `python:`)."""

from advisor.rules.checks import jvm, keys, operations, security, surfaces, tenancy

__all__ = ["jvm", "keys", "operations", "security", "surfaces", "tenancy"]
