"""The HTML page's pieces, in process (the browser tests are in test_html_report.py): every text
escaped, links to public https documents only, references linked by what they name."""

from __future__ import annotations

from advisor.output.html_page import diff_block, esc, link, table
from advisor.recommend import citations


def test_text_is_escaped_and_control_characters_are_shown() -> None:
    assert esc('<script>"x"&</script>') == "&lt;script&gt;&quot;x&quot;&amp;&lt;/script&gt;"
    assert esc("a\x1b[31mb") == "a\\x1b[31mb"
    assert "<td>&lt;b&gt;</td>" in table(["h"], [["<b>"]])


def test_only_https_links_are_links() -> None:
    assert link("https://kafka.apache.org/documentation/").startswith('<a href="https://kafka.apache.org/')
    for hostile in ("javascript:alert(1)", "file:///etc/passwd", "http://example.com/", "data:text/html,x"):
        assert "<a " not in link(hostile) and esc(hostile) in link(hostile)


def test_a_diff_marks_its_lines_and_escapes_them() -> None:
    shown = diff_block("--- a/f\n+++ b/f\n-acks=1\n+acks=<all>\n")
    assert (
        '<span class="diff-del">-acks=1</span>' in shown and '<span class="diff-add">+acks=&lt;all&gt;</span>' in shown
    )
    assert 'diff-add">+++' not in shown


def test_references_link_to_the_document_they_name() -> None:
    assert citations.reference_links("KAFKA-15583: the leader's high watermark") == [
        "https://issues.apache.org/jira/browse/KAFKA-15583"
    ]
    assert citations.reference_links("KIP-679")[0].endswith("KIP-679%3A+Producer+will+enable+the+strongest+delivery"
                                                             "+guarantee+by+default")  # fmt: skip
    assert citations.reference_links("KIP-4242: a proposal with no link of its own") == [
        "https://cwiki.apache.org/confluence/display/KAFKA/Kafka+Improvement+Proposals"
    ]
    assert citations.reference_links("Kafka documentation, Monitoring: UnderReplicatedPartitions") == [
        "https://kafka.apache.org/documentation/#monitoring"
    ]
    assert citations.reference_links("Partition.appendRecordsToLeader") == []  # a method: said, not linked
