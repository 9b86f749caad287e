"""M6: end to end over the sample report (code/rag.py)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rag import run

pytestmark = pytest.mark.m6
CODE = Path(__file__).resolve().parents[1]


def test_sample_question_gives_a_cited_faithful_answer():
    result = run("What was Q3 revenue?")
    assert "4.2M" in result.answer.text
    assert result.answer.citations
    cited = {c["id"]: c for c in result.citations}
    first = cited[result.answer.citations[0]]
    assert first["page"] == 1 and "4.2M" in first["quote"]
    assert result.faithfulness.score == 1.0 and result.faithfulness.claims


def test_off_document_question_refuses():
    result = run("Who is the CEO of Apple?")
    assert result.answer.refused and result.answer.citations == []


def test_cli_json_has_the_documented_shape():
    out = subprocess.run([sys.executable, str(CODE / "rag.py"), "--json", "When did the Berlin office open?"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    for key in ("question", "answer", "refused", "citations", "retrieved", "faithfulness",
                "model", "embedding_model", "timings"):
        assert key in data
    assert data["refused"] is False and "July" in data["answer"]
    assert {"id", "page", "quote"} <= set(data["citations"][0])
    assert {"id", "page", "score", "text"} <= set(data["retrieved"][0])
    assert set(data["faithfulness"]) >= {"score", "claims", "verdicts"}
    assert data["citations"][0]["page"] == 3
