"""The values a profile calls for: computed from its numbers (they move when the numbers move),
bounded where the software bounds them, and never below the durability the profile's tolerance
for loss allows — where a profile trades durability away, the recommendation says so."""

from __future__ import annotations

import itertools

import pytest

from advisor.recommend import sizing, values
from advisor.recommend.plan import plan
from advisor.recommend.profile import GOALS, LoadProfile, resolve

GRID = [
    LoadProfile(goal=goal, message_bytes_avg=size, rate_mb_s=rate, p99_ms=p99, ordering=ordering)
    for goal, size, rate, p99, ordering in itertools.product(
        GOALS, (100, 1000, 100_000), (0.5, 40.0, 400.0), (None, 10.0, 200.0), ("none", "per-key"))
]  # fmt: skip


def chosen(profile: LoadProfile) -> dict[tuple[str, str], str]:
    return {(r.component, r.key): r.value for r in values.recommend(resolve(profile))}


@pytest.mark.parametrize("profile", GRID, ids=str)
def test_a_profile_that_tolerates_no_loss_keeps_every_durability_guard(profile: LoadProfile) -> None:
    picked = chosen(profile)
    assert picked[("producer", "acks")] == "all"  # every goal: acks=1 is never recommended
    assert picked[("producer", "enable.idempotence")] == "true"
    if profile.ordering == "per-key":  # more in flight turns Java's default idempotence off
        assert picked[("producer", "max.in.flight.requests.per.connection")] == "5"
    assert picked[("broker", "compression.type")] == "producer"  # never recompress on the broker
    if profile.goal == "availability":  # the preset tolerates loss: the broker side trades it, and says so
        assert ("consumer", "enable.auto.commit") not in picked and ("producer", "retries") not in picked
        return
    assert int(picked[("topic", "min.insync.replicas")]) == 2  # RF 3
    assert picked[("broker", "unclean.leader.election.enable")] == "false"
    assert picked[("producer", "retries")] == "2147483647"  # a transient error is retried, not a record lost
    assert picked[("consumer", "enable.auto.commit")] == "false"  # offsets committed after the processing


def test_trading_durability_away_is_said_where_it_happens() -> None:
    recommendations = values.recommend(resolve(LoadProfile(goal="availability")))
    lowered = {r.key for r in recommendations if r.tradeoff.startswith("trades durability away")}
    assert lowered == {"min.insync.replicas", "unclean.leader.election.enable"}
    picked = {r.key: r for r in recommendations}
    # acks=1 is left to the user: named in the reason, never recommended
    assert picked["acks"].value == "all" and "acks=1 would also do" in picked["acks"].rationale
    assert picked["enable.idempotence"].value == "true"


@pytest.mark.parametrize("profile", GRID, ids=str)
def test_values_stay_within_what_clients_and_brokers_take(profile: LoadProfile) -> None:
    picked = chosen(profile)
    batch = int(picked.get(("producer", "batch.size"), values.DEFAULT_BATCH))
    assert values.DEFAULT_BATCH <= batch <= values.MAX_BATCH
    linger = int(picked[("producer", "linger.ms")])
    if profile.p99_ms is not None:
        assert linger <= max(1, profile.p99_ms / 4)
    fetch_min = int(picked.get(("consumer", "fetch.min.bytes"), 1))
    assert 1 <= fetch_min <= 1_000_000
    assert int(picked.get(("producer", "buffer.memory"), values.DEFAULT_BUFFER)) >= values.DEFAULT_BUFFER


def test_the_numbers_move_the_values() -> None:
    slow = chosen(LoadProfile(goal="throughput", message_bytes_avg=200, rate_mb_s=0.2))
    fast = chosen(LoadProfile(goal="throughput", message_bytes_avg=200, rate_mb_s=40))
    assert int(fast[("producer", "batch.size")]) > int(slow[("producer", "batch.size")])
    assert int(fast[("producer", "linger.ms")]) < int(slow[("producer", "linger.ms")])  # fills sooner
    assert int(fast[("consumer", "fetch.min.bytes")]) > int(slow[("consumer", "fetch.min.bytes")])
    keyed = chosen(LoadProfile(goal="throughput", message_bytes_avg=200, rate_mb_s=40, ordering="per-key"))
    assert int(keyed[("producer", "batch.size")]) < int(fast[("producer", "batch.size")])  # spread over partitions


def test_slow_processing_bounds_the_records_a_poll_returns() -> None:
    picked = chosen(LoadProfile(processing_ms=2000))
    records = int(picked[("consumer", "max.poll.records")])
    assert records * 2000 <= values.POLL_INTERVAL_MS * 0.5 and records >= 1
    assert ("consumer", "max.poll.records") not in chosen(LoadProfile(processing_ms=1))  # 500 already fits


def test_partitions_cover_the_peak_the_readers_and_every_consumer() -> None:
    profile = resolve(LoadProfile(rate_mb_s=50, peak_factor=2, message_bytes_avg=1000, processing_ms=1,
                                  consumers_per_group=6))  # fmt: skip
    # peak 100 MB/s: 10 partitions to write it, 100 for readers at 1 MB/s each, 6 consumers
    assert sizing.partitions(profile).value == 100
    assert "needs 100 consumers" in sizing.partitions(profile).note
    fixed = resolve(LoadProfile(rate_mb_s=50, partitions=8, processing_ms=0.001))
    assert sizing.partitions(fixed).value == 8 and "fewer than the 10" in sizing.partitions(fixed).note


def test_disk_and_traffic_follow_their_formulas() -> None:
    profile = resolve(LoadProfile(rate_mb_s=10, retention_hours=24, brokers=6, replication_factor=3,
                                  consumer_groups=4))  # fmt: skip
    sizes = {s.name: s.value for s in sizing.all_sizes(profile)}
    assert sizes["disk per broker"] == pytest.approx(10e6 * 86400 * 3 * 1.2 / 6)
    assert sizes["replication traffic (cluster)"] == pytest.approx(20e6)
    assert sizes["consumer egress (cluster)"] == pytest.approx(40e6)
    assert sizes["page cache per broker"] == pytest.approx(10e6 * 3 / 6 * 30)


def test_each_client_gets_its_own_spelling_and_a_missing_knob_is_said() -> None:
    librdkafka = plan(LoadProfile(goal="throughput", rate_mb_s=200, message_bytes_avg=200), "librdkafka")
    spelled = {r.key: librdkafka.spelled(r) for r in librdkafka.recommendations}
    assert spelled["buffer.memory"].key is None and "already holds it" in spelled["buffer.memory"].note
    python = plan(LoadProfile(goal="throughput", processing_ms=5000), "kafka-python")
    by_key = {r.key: python.spelled(r) for r in python.recommendations}
    assert by_key["linger.ms"].key == "linger_ms" and isinstance(by_key["linger.ms"].value, int)
    assert by_key["enable.idempotence"].value is True
    assert by_key["max.poll.records"].key == "max_poll_records"


def test_records_larger_than_the_defaults_raise_both_limits_and_only_then() -> None:
    picked = chosen(LoadProfile(message_bytes_avg=200_000, message_bytes_max=3_000_000))
    request = int(picked[("producer", "max.request.size")])
    assert request >= 3_000_000 + values.RECORD_OVERHEAD and request == int(picked[("topic", "max.message.bytes")])
    small = chosen(LoadProfile(message_bytes_avg=2000, message_bytes_max=500_000))
    assert ("producer", "max.request.size") not in small and ("topic", "max.message.bytes") not in small
    spelled = plan(LoadProfile(message_bytes_max=3_000_000, message_bytes_avg=10_000), "librdkafka")
    by_key = {r.key: spelled.spelled(r) for r in spelled.recommendations}
    assert by_key["max.request.size"].key == "message.max.bytes"  # librdkafka's name for the client limit


def test_every_source_a_user_reads_is_a_public_document() -> None:
    """Sources name what a user can open (Confluent's guide, the MSK sizing page, KIPs), never the
    team's notes; the grid reaches every recommendation and every size."""
    from advisor.rules.definition import INTERNAL_NOTES

    sources: set[str] = set()
    large = LoadProfile(goal="throughput", message_bytes_max=5_000_000, processing_ms=50.0, retention_hours=24)
    for profile in [*GRID, large]:
        resolved = resolve(profile)
        sources |= {r.source for r in values.recommend(resolved)}
        sources |= {size.source for size in sizing.all_sizes(resolved)}
    assert len(sources) > 12
    assert not [source for source in sources if not source or INTERNAL_NOTES.search(source)]


def test_every_source_shown_has_a_link_to_open() -> None:
    """Each recommendation and size links the public documents its source names (part 7 of #25);
    each link is https and each known document is linked from some source."""
    from advisor.recommend import citations

    large = LoadProfile(goal="throughput", message_bytes_max=5_000_000, processing_ms=50.0, retention_hours=24,
                        transactions=True)  # fmt: skip
    sources = set()
    for profile in [*GRID, large]:
        resolved = resolve(profile)
        sources |= {r.source for r in values.recommend(resolved)} | {s.source for s in sizing.all_sizes(resolved)}
    unlinked = [source for source in sources if not citations.links(source)]
    assert unlinked == []
    every = {url for source in sources for url in citations.links(source)}
    assert all(url.startswith("https://") for url in every)
    assert {url for _, url in citations.LINKS} <= every  # no document listed that no source names
