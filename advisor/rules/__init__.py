"""The rule engine: rule definitions, evaluation over the normalized document, findings."""
