"""`kafka-advisor verify`: two sets of metric snapshots, before and after a change, compared for the
metrics that prove a recommendation — improved, regressed or inconclusive, with a noise bound
from the repeated samples of each side (docs/verify.md)."""
