"""A running cluster, read through Kafka's Admin API and never written to (docs/audit.md):
`client` reads a Snapshot (describe requests only), `document` makes it config sets and a
cluster the rules judge like any file's, each value with where it comes from
(`live://CLUSTER/broker:2`, its config source)."""
