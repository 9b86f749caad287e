"""M5: faithfulness - F = |V|/|S| over sentence-level claims (code/faithfulness.py).

The contract is the docstrings of faithfulness_score and check_faithfulness, and
source/project.md (faithfulness.py, and the contract table): F is the share of supported
claims, 1.0 for none; each claim is verified against the whole context by a yes/no model call.

Tests marked "LiteLLM" run the real litellm.completion code path with its own mock_response
(RAG_MOCK_RESPONSE): the verdict then comes from that reply, whatever the words of the claim."""

import pytest

from chunker import Chunk
from faithfulness import FaithfulnessReport, check_faithfulness, faithfulness_score, parse_verdict, split_claims

pytestmark = pytest.mark.m5


@pytest.mark.parametrize("verdicts, expected", [
    ([True, True, False], 0.6667), ([], 1.0), ([True], 1.0), ([False, False], 0.0), ([True, False], 0.5),
    ([True, False, False], 0.3333), ([True] * 5 + [False] * 2, 0.7143),
    ([True] + [False] * 11, 0.0833),  # 4 decimals, not 4 significant digits (0.08333)
])
def test_score_is_the_share_of_supported_claims(verdicts, expected):
    score = faithfulness_score(verdicts)
    assert isinstance(score, float), f"faithfulness_score returns a float; got {type(score).__name__}"
    assert score == expected, (
        f"faithfulness_score({verdicts}) must be {expected}: supported / total, rounded to 4 "
        f"decimals as in the spec's example (0.6667), and 1.0 for [] (source/project.md)")


def test_spec_example_supported_then_hallucinated():
    report = check_faithfulness("Q3 revenue was 4.2M. Margin was 40%.", [Chunk("c0", "Q3 revenue 4.2M, margin 21%.")])
    assert isinstance(report, FaithfulnessReport), "check_faithfulness returns a FaithfulnessReport"
    assert report.claims == ["Q3 revenue was 4.2M.", "Margin was 40%."], (
        f"one claim per sentence (split_claims), in the answer's order; got {report.claims!r}")
    hint = {(False, True): "they are the wrong way round: your question asks the other way ('Is the claim a "
                           "hallucination?': then 'Yes' means unsupported); ask with _VERIFY_SYSTEM, read 'Yes' as supported",
            (True, True): "both are Yes: the verifier may see the answer itself; show it the context and one claim, never "
                          "the answer it is checking (a judge reads all it is shown)",
            (False, False): "both are No: the offline verifier may not have found the claim in your user message "
                            "('Claim: <claim>' always works; rule 4 of the protocol in code/offline_model.py lists the "
                            "other layouts), or the claims went to the model together"}
    assert report.verdicts == [True, False], (
        f"the spec's example: 4.2M is supported by [c0], 40% is not (the context says 21%); got {report.verdicts!r}: "
        + hint.get(tuple(report.verdicts), "one verdict per claim: each claim gets a model call of its own, one reply "
                                            "per verdict"))
    assert report.score == 0.5, "score = faithfulness_score(verdicts)"


def test_a_claim_that_adds_a_cause_is_unsupported():
    report = check_faithfulness("Q3 revenue was 4.2M EUR, driven by strong demand.",
                                [Chunk("c0", "Q3 revenue was 4.2M EUR, up 8% year over year.")])
    assert report.verdicts == [False], (
        f"the context states the revenue, not why: a claim that adds a cause is unsupported; got "
        f"{report.verdicts!r}. A judge told to say Yes to what is plausible or broadly consistent accepts "
        f"it: ask whether the context states the claim (as _VERIFY_SYSTEM does)")


def test_no_claims_is_vacuously_faithful():
    report = check_faithfulness("", [Chunk("c0", "anything")])
    assert (report.score, report.claims, report.verdicts) == (1.0, [], []), (
        "no claims -> FaithfulnessReport(1.0, [], []) (the contract table)")


def test_given_claims_are_used_as_they_are_in_order():
    claims = ["A Berlin office opened in July.", "A Paris office opened in May.", "The Berlin office opened in July"]
    report = check_faithfulness("ignored", [Chunk("c0", "A Berlin office opened in July.")], claims=list(claims))
    assert report.claims == claims, f"given claims are used (and returned) as they are, unchanged; got {report.claims!r}"
    assert report.verdicts == [True, False, True], (
        f"one verdict per claim, in the order of the claims: the Paris claim is unsupported, the others are; got "
        f"{report.verdicts!r}. If the count and order are right but the verdicts are not, the offline verifier did "
        f"not find the claim in your user message (see test_spec_example_supported_then_hallucinated)")
    assert report.score == 0.6667, f"score = faithfulness_score(verdicts): 2 of 3 is 0.6667; got {report.score!r}"


def test_every_given_claim_counts_short_or_repeated():
    chunks = [Chunk("c0", "Q3 revenue was 4.2M.")]
    report = check_faithfulness("ignored", chunks, claims=["Q3 revenue was 4.2M.", "It doubled."])
    assert (report.verdicts, report.score) == ([True, False], 0.5), (
        f"a short claim is a claim ('It doubled.' is unsupported): verdicts [True, False], score 0.5; got "
        f"{report.verdicts!r}, {report.score!r}")
    claims = ["Revenue was 5M.", "Revenue was 5M.", "Q3 revenue was 4.2M."]
    report = check_faithfulness("ignored", chunks, claims=list(claims))
    why = ("a repeated claim is judged each time it is said (not deduplicated)" if report.claims != claims else
           "each claim is judged on its own: each verifier call shows the context and ONE claim (an earlier claim, "
           "shown to the judge, is evidence for its repeat)")
    assert (report.claims, report.score) == (claims, 0.3333), (
        f"{why}: 1 of 3 supported, score 0.3333; got claims {report.claims!r}, score {report.score!r}")


def test_a_given_claim_of_two_sentences_stays_one_claim():
    claims = ["A Berlin office opened in July. A Paris office opened in May."]
    report = check_faithfulness("ignored", [Chunk("c0", "A Berlin office opened in July.")], claims=list(claims))
    assert report.claims == claims and len(report.verdicts) == 1, (
        f"a given claim is used as it is, even when it holds two sentences (not split again): one claim, one "
        f"verdict; got claims {report.claims!r}, verdicts {report.verdicts!r}")


def test_an_empty_list_of_claims_is_used_as_it_is():
    report = check_faithfulness("Q3 revenue was 4.2M.", [Chunk("c0", "Q3 revenue was 4.2M.")], claims=[])
    assert (report.score, report.claims, report.verdicts) == (1.0, [], []), (
        "claims=[] means no claims (only claims=None means: split the answer)")


def test_claims_come_from_split_claims():
    text = "Sales in the U.S. rose 8%, e.g. in Texas [c1]. Margin was 21% [c0].\n\n[c0][c1]"
    report = check_faithfulness(text, [Chunk("c0", "Margin was 21%."), Chunk("c1", "Sales in the U.S. rose 8%, e.g. in Texas.")])
    assert report.claims == split_claims(text), (
        "split the answer with split_claims (provided) and keep its claims as they come, in order: it keeps "
        f"'U.S.' and 'e.g.' inside their sentence, and a line of citation markers alone is no claim; got {report.claims!r}")


def test_the_given_settings_choose_the_verifier(monkeypatch):
    from config import get_config

    monkeypatch.setenv("LLM_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAG_MOCK_RESPONSE", "No")  # what the environment's model would say
    report = check_faithfulness("Q3 revenue was 4.2M.", [Chunk("c0", "Q3 revenue was 4.2M.")], cfg=get_config(env={}))
    assert report.verdicts == [True], (
        "check_faithfulness(..., cfg=cfg) verifies with the model cfg names: pass it on, "
        "completion(..., cfg=cfg) (if you do, see test_spec_example_supported_then_hallucinated first)")


def test_a_provider_failure_is_an_error_not_a_verdict(monkeypatch):
    from config import RAGError

    monkeypatch.setenv("LLM_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAG_MOCK_RESPONSE", "litellm.RateLimitError")
    monkeypatch.setenv("RAG_MAX_RETRIES", "0")
    try:
        report = check_faithfulness("Q3 revenue was 4.2M.", [Chunk("c0", "Q3 revenue was 4.2M.")])
    except RAGError:
        return
    pytest.fail(f"expected the provider's failure to reach the caller as RAGError; check_faithfulness returned "
                f"{report}: a claim the verifier could not check is neither supported nor not (let the error through)")


def test_claims_are_checked_against_every_chunk_not_only_the_first():
    filler = " ".join(f"Item {n} of the appendix lists a supplier and its postcode." for n in range(40))
    others = [Chunk(f"c{n}", f"Appendix {n} lists the suppliers of region {n}.") for n in range(1, 5)]
    chunks = [Chunk("c0", "Q3 revenue was 4.2M. " + filler), *others, Chunk("c5", "The Berlin office opened in July.")]
    report = check_faithfulness("The Berlin office opened in July [c0].", chunks)
    assert report.verdicts == [True], (
        "the context is every chunk joined (context_block), whole: not only the first chunk or the first few (here "
        "the fact is in the sixth of six), not cut to a length, and not only the chunks a sentence cites (here it "
        "cites the wrong one)")


def test_the_configured_length_limit_reaches_the_verifier(monkeypatch, litellm_calls):
    """A learner's verifier passed max_tokens=1: a reasoning model spends its budget before it says "Yes"."""
    monkeypatch.setenv("LLM_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAG_MOCK_RESPONSE", "Yes")
    monkeypatch.setenv("RAG_MAX_TOKENS", "777")
    check_faithfulness("Q3 revenue was 4.2M.", [Chunk("c0", "Q3 revenue was 4.2M.")])
    sent = [call["max_tokens"] for call in litellm_calls]
    assert sent == [777], (f"the verifier's length limit is the configured one (RAG_MAX_TOKENS=777 here): "
                           f"completion(..., cfg=cfg) applies it, so pass no max_tokens of your own; got {sent!r}")


def test_litellm_one_call_per_claim_sees_every_chunk(monkeypatch, litellm_calls):
    monkeypatch.setenv("LLM_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAG_MOCK_RESPONSE", "Yes")
    chunks = [Chunk("c0", "Q3 revenue was 4.2M."), Chunk("c1", "The Berlin office opened in July.")]
    check_faithfulness("Q3 revenue was 4.2M and Berlin opened in July. Margin was 21%.", chunks)
    sent = [call["prompt"] for call in litellm_calls]
    assert len(sent) == 2, f"one verifier call per claim (2 claims here); got {len(sent)} call(s)"
    missing = [n for n, m in enumerate(sent, start=1) if not ("4.2M" in m and "Berlin office" in m)]
    assert not missing, (
        f"each verifier call shows every chunk (a claim may combine facts of two chunks): call(s) {missing} "
        f"lack c0's '4.2M' or c1's 'Berlin office'; use context_block(chunks), not only the first chunk")
    assert "Margin was 21%" not in sent[0] and "Berlin opened in July" not in sent[1], (
        "each verifier call shows the context and ONE claim: an earlier claim (and its verdict) shown to the judge "
        "is evidence it may lean on; start each call afresh")



def test_a_refusal_is_a_claim_like_any_other(monkeypatch, litellm_calls):
    """An outside learner's check_faithfulness scored a refusal 0.0 with no claims, another marked a
    declining sentence unsupported without asking: the model judges every claim it is given."""
    monkeypatch.setenv("LLM_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAG_MOCK_RESPONSE", "Yes")
    text = "I don't know: the context does not say when it opened."
    report = check_faithfulness(text, [Chunk("c0", "Q3 revenue was 4.2M.")])
    inverted = report.claims == [text] and len(litellm_calls) == 1 and report.verdicts == [False]
    assert (report.claims, report.verdicts, report.score, len(litellm_calls)) == ([text], [True], 1.0, 1), (
        "the model said Yes and the verdict is False: read the reply with parse_verdict, and ask whether the context "
        "SUPPORTS the claim (_VERIFY_SYSTEM), not whether it contradicts it" if inverted else
        f"a refusal is not special in check_faithfulness: its sentence is a claim from split_claims, sent to the "
        f"model like any other (here the model says Yes); rag.ask leaves refusals out before it calls this. Got "
        f"claims={report.claims!r}, verdicts={report.verdicts!r}, score={report.score}, {len(litellm_calls)} call(s)")


def test_citation_markers_are_not_part_of_a_claim():
    report = check_faithfulness("Q3 revenue was 4.2M [c0].", [Chunk("c0", "Q3 revenue was 4.2M.")])
    assert report.claims == ["Q3 revenue was 4.2M."], "claims come from split_claims, which removes [c0] markers"
    assert report.verdicts == [True]


@pytest.mark.parametrize("reply, claim, verdict", [
    ("No", "Q3 revenue was 4.2M.", False),  # copies the context word for word, yet the judge says no
    ("Yes", "The moon is made of cheese.", True),  # shares no word with the context, yet the judge says yes
    ("No. Yes would need another context.", "Q3 revenue was 4.2M.", False),  # read the verdict, not a word in it
    ("Yes, the context states it.", "Q3 revenue was 4.2M.", True),  # a verdict with a reason is still a yes
    ("Verdict: Yes", "Q3 revenue was 4.2M.", True),  # the verdict need not be the first word
    ("I cannot tell.", "Q3 revenue was 4.2M.", False),  # an unreadable verdict is not evidence of support
    ("Not supported.", "Q3 revenue was 4.2M.", False),  # "supported" inside "not supported" is no yes
])
def test_the_model_decides_each_verdict(monkeypatch, reply, claim, verdict):
    monkeypatch.setenv("LLM_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAG_MOCK_RESPONSE", reply)
    report = check_faithfulness(claim, [Chunk("c0", "Q3 revenue was 4.2M.")])
    assert report.verdicts == [verdict], (
        f"the verifier model replied {reply!r}, so the verdict is {verdict}: each claim is judged by a "
        f"yes/no call through completion(...), read with parse_verdict (provided), not by a rule of your own; "
        f"and the question is whether the context SUPPORTS the claim (_VERIFY_SYSTEM), not whether it contradicts "
        f"it: a claim the context never mentions is not contradicted, yet it is unsupported")


def test_claim_splitting_keeps_numbers_and_abbreviations_whole():
    claims = split_claims("Q3 revenue was 4.2M [c0]. Sales in the U.S. rose 8%, e.g. in Texas [c1]. Margin was 21%.")
    assert claims == ["Q3 revenue was 4.2M.", "Sales in the U.S. rose 8%, e.g. in Texas.", "Margin was 21%."]


def test_only_citation_markers_are_stripped_from_claims():
    assert split_claims("Call it with [Function] flags [c0]. See note [1] [report:c3].") == [
        "Call it with [Function] flags.", "See note [1]."]


@pytest.mark.parametrize("reply, verdict", [
    ("Yes", True), ("Yes.", True), ("**yes**", True), ("Verdict: YES", True),
    ("No", False), ("no – because the context says 21%", False), ("Not supported.", False),
    ("", False), ("I cannot tell", False), ("I cannot say yes to this; No.", False),
    ("Based on the context, the claim is supported.", True),
])
def test_verifier_replies_are_read_tolerantly(reply, verdict):
    assert parse_verdict(reply) is verdict, f"expected {reply!r} to read as {verdict}"


@pytest.mark.parametrize("reply", ["Oui", "Q3 revenue was 4.2M.", ""])
def test_a_reply_that_is_neither_yes_nor_no_is_unsupported_and_said(reply, capsys):
    assert parse_verdict(reply) is False
    warning = capsys.readouterr().err
    assert "neither yes nor no" in warning and warning.count("\n") == 1, (
        f"expected a one-line warning that the verifier's reply {reply!r} was unreadable; stderr was {warning!r}")
