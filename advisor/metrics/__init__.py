"""Broker and client metrics: readers of what exporters and clients report (issue #13)."""
