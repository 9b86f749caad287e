"""M4: answer - call the model, parse citations, refuse off-document (code/generator.py)."""

import pytest

from chunker import Chunk
from generator import _CITE, Answer, answer

pytestmark = pytest.mark.m4

CHUNKS = [Chunk("c0", "Q3 revenue was 4.2M, up 8% YoY."), Chunk("c1", "A Berlin office opened in July.")]


def test_answerable_question_cites_the_right_chunk():
    result = answer("What was Q3 revenue?", CHUNKS)
    assert isinstance(result, Answer)
    assert "4.2M" in result.text
    assert result.citations == ["c0"]


def test_off_document_question_refuses_without_citations():
    result = answer("Who is the CEO of Apple?", CHUNKS)
    assert "know" in result.text.lower()
    assert result.citations == []


def test_citations_are_a_subset_of_the_given_chunk_ids():
    result = answer("When did the Berlin office open?", CHUNKS)
    assert result.citations and set(result.citations) <= {"c0", "c1"}


def test_cite_regex_finds_ids():
    assert _CITE.findall("Revenue was 4.2M [c0]. Margin 21% [c12][c0].") == ["c0", "c12", "c0"]


def test_real_litellm_path_parses_deduplicates_and_drops_invented_ids(monkeypatch):
    # LiteLLM's own mock_response: the real litellm.completion code path, no network.
    monkeypatch.setenv("LLM_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAG_MOCK_RESPONSE", "Q3 revenue was 4.2M [c0]. It rose 8% [c0][c99].")
    result = answer("What was Q3 revenue?", CHUNKS)
    assert result.text == "Q3 revenue was 4.2M [c0]. It rose 8% [c0][c99]."
    assert result.citations == ["c0"]
    assert result.dropped == ["c99"]


def test_real_litellm_refusal_has_no_citations(monkeypatch):
    monkeypatch.setenv("LLM_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("RAG_MOCK_RESPONSE", "I don't know; the context does not say [c1].")
    assert answer("Who is the CEO of Apple?", CHUNKS).citations == []
