"""M5: faithfulness - F = |V|/|S| over sentence-level claims (code/faithfulness.py)."""

import pytest

from chunker import Chunk
from faithfulness import FaithfulnessReport, check_faithfulness, faithfulness_score, split_claims

pytestmark = pytest.mark.m5


@pytest.mark.parametrize("verdicts, expected", [
    ([True, True, False], 0.6667), ([], 1.0), ([True], 1.0), ([False, False], 0.0), ([True, False], 0.5),
])
def test_score_is_the_share_of_supported_claims(verdicts, expected):
    assert faithfulness_score(verdicts) == pytest.approx(expected, abs=1e-4)


def test_spec_example_supported_then_hallucinated():
    report = check_faithfulness("Q3 revenue was 4.2M. Margin was 40%.", [Chunk("c0", "Q3 revenue 4.2M, margin 21%.")])
    assert isinstance(report, FaithfulnessReport)
    assert len(report.claims) == 2
    assert report.verdicts == [True, False]
    assert report.score == pytest.approx(0.5)


def test_no_claims_is_vacuously_faithful():
    report = check_faithfulness("", [Chunk("c0", "anything")])
    assert report.score == 1.0 and report.claims == [] and report.verdicts == []


def test_given_claims_are_used_as_they_are():
    report = check_faithfulness("ignored", [Chunk("c0", "A Berlin office opened in July.")],
                                claims=["A Berlin office opened in July.", "A Paris office opened in May."])
    assert report.verdicts == [True, False]


def test_claim_splitting_keeps_numbers_and_abbreviations_whole():
    claims = split_claims("Q3 revenue was 4.2M [c0]. Sales in the U.S. rose 8%, e.g. in Texas [c1]. Margin was 21%.")
    assert claims == ["Q3 revenue was 4.2M.", "Sales in the U.S. rose 8%, e.g. in Texas.", "Margin was 21%."]


def test_citation_markers_do_not_count_against_a_claim():
    report = check_faithfulness("Q3 revenue was 4.2M [c0].", [Chunk("c0", "Q3 revenue was 4.2M.")])
    assert report.verdicts == [True]


def test_only_citation_markers_are_stripped_from_claims():
    assert split_claims("Call it with [Function] flags [c0]. See note [1] [report:c3].") == [
        "Call it with [Function] flags.", "See note [1]."]


@pytest.mark.parametrize("reply, verdict", [
    ("Yes", True), ("Yes.", True), ("**yes**", True), ("Verdict: YES", True),
    ("No", False), ("no – because the context says 21%", False), ("Not supported.", False),
    ("", False), ("I cannot tell", False),
])
def test_verifier_replies_are_read_tolerantly(reply, verdict):
    from faithfulness import parse_verdict

    assert parse_verdict(reply) is verdict
