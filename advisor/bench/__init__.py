"""`kafka-advisor bench`: a real before-and-after on a real cluster with Kafka's own
kafka-producer-perf-test, two producer configurations interleaved A B A B after a warm-up
(docs/bench.md)."""
