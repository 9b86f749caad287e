"""M3: build_prompt - the grounded prompt (code/generator.py)."""

import pytest

from chunker import Chunk
from generator import build_prompt

pytestmark = pytest.mark.m3

CHUNKS = [Chunk("c0", "Q3 revenue was 4.2M, up 8% YoY."), Chunk("c1", "A Berlin office opened in July.")]


def test_system_first_user_last():
    messages = build_prompt("What was Q3 revenue?", CHUNKS)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert all(isinstance(m["content"], str) and m["content"] for m in messages)


def test_system_grounds_asks_for_citations_and_allows_refusal():
    system = build_prompt("What was Q3 revenue?", CHUNKS)[0]["content"].lower()
    assert "only" in system and "context" in system
    assert "cite" in system and "[c0]" in system
    assert "don't know" in system or "do not know" in system


def test_user_holds_every_id_with_its_text_then_the_question():
    user = build_prompt("What was Q3 revenue?", CHUNKS)[1]["content"]
    assert "[c0] Q3 revenue was 4.2M, up 8% YoY." in user
    assert "[c1] A Berlin office opened in July." in user
    assert user.index("[c0]") < user.index("[c1]") < user.index("Question: What was Q3 revenue?")
    assert user.rstrip().endswith("What was Q3 revenue?")


def test_empty_chunks_still_give_a_valid_prompt():
    messages = build_prompt("What was Q3 revenue?", [])
    assert [m["role"] for m in messages] == ["system", "user"]
    assert "What was Q3 revenue?" in messages[1]["content"]
    assert "don't know" in messages[0]["content"].lower() or "do not know" in messages[0]["content"].lower()


def test_multi_line_chunk_stays_on_its_own_id_line():
    user = build_prompt("q?", [Chunk("c7", "line one\nline two")])[1]["content"]
    assert "[c7] line one line two" in user
