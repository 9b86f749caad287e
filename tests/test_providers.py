"""Real providers, through LiteLLM: the only tests that use the network, skipped without a key.

Set a key (in the shell or .env) to run them, e.g. `OPENAI_API_KEY=... python -m pytest -m provider`.
"""

import os

import pytest

import rag
from config import PROVIDERS, load_env

load_env()  # a key kept in the repository's .env counts too
KEYS = tuple(p.key_variable for p in PROVIDERS)
KEY = next((k for k in KEYS if os.environ.get(k)), None)

pytestmark = [
    pytest.mark.provider,
    pytest.mark.skipif(KEY is None, reason=f"needs a real provider key ({', '.join(KEYS)}); "
                                           f"the offline tests cover everything else"),
]


def test_real_model_gives_a_cited_faithful_answer():
    result = rag.run("What was Q3 revenue?")
    assert "4.2" in result.answer.text
    assert result.answer.citations and result.citations[0]["page"] == 1
    assert result.faithfulness.score >= 0.5


def test_real_model_refuses_an_off_document_question():
    result = rag.run("Who is the CEO of Apple?")
    assert result.answer.refused and result.answer.citations == []
