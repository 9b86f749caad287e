"""config.py (provided): model resolution order, RAG_* overrides, keys never printed."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from config import OFFLINE_CHAT_MODEL, OFFLINE_EMBEDDING_MODEL, RAGError, get_config, resolve_models

CODE = Path(__file__).resolve().parents[1]


def test_nothing_set_means_offline():
    r = resolve_models({})
    assert (r["model"], r["embedding_model"]) == (OFFLINE_CHAT_MODEL, OFFLINE_EMBEDDING_MODEL)


def test_explicit_models_beat_everything():
    r = resolve_models({"LLM_MODEL": "x/chat", "EMBEDDING_MODEL": "x/emb", "USE_OLLAMA": "1",
                        "OPENAI_API_KEY": "sk-test"})
    assert (r["model"], r["model_source"]) == ("x/chat", "LLM_MODEL")
    assert (r["embedding_model"], r["embedding_source"]) == ("x/emb", "EMBEDDING_MODEL")


def test_ollama_beats_cloud_keys():
    r = resolve_models({"USE_OLLAMA": "1", "OPENAI_API_KEY": "sk-test"})
    assert r["model"].startswith("ollama_chat/") and r["embedding_model"] == "ollama/nomic-embed-text"


def test_first_cloud_key_wins_and_embeddings_come_from_a_provider_that_has_them():
    r = resolve_models({"GROQ_API_KEY": "g", "GEMINI_API_KEY": "m"})
    assert r["model"].startswith("groq/") and r["model_source"] == "GROQ_API_KEY"
    assert r["embedding_model"].startswith("gemini/") and r["embedding_source"] == "GEMINI_API_KEY"
    only_anthropic = resolve_models({"ANTHROPIC_API_KEY": "a"})
    assert only_anthropic["model"].startswith("anthropic/")
    assert only_anthropic["embedding_model"] == OFFLINE_EMBEDDING_MODEL


def test_a_local_openai_compatible_server_keeps_offline_embeddings():
    local = {"LLM_MODEL": "openai/local", "OPENAI_API_KEY": "anything", "OPENAI_BASE_URL": "http://127.0.0.1:8080/v1"}
    assert resolve_models(local)["embedding_model"] == OFFLINE_EMBEDDING_MODEL, \
        "a local server rarely serves OpenAI's embedding model: embeddings stay offline unless EMBEDDING_MODEL says"
    assert resolve_models({**local, "EMBEDDING_MODEL": "openai/nomic"})["embedding_model"] == "openai/nomic"


def test_rag_overrides_and_validation(monkeypatch):
    monkeypatch.setenv("RAG_TOP_K", "7")
    monkeypatch.setenv("RAG_CHUNKER", "sentence")
    cfg = get_config()
    assert cfg.top_k == 7 and cfg.chunker == "sentence" and cfg.temperature == 0.0
    monkeypatch.setenv("RAG_TOP_K", "many")
    with pytest.raises(RAGError, match="RAG_TOP_K"):
        get_config()
    with pytest.raises(RAGError, match="overlap"):
        get_config(env={}, chunk_size=50, chunk_overlap=50)


def test_a_bad_setting_from_the_environment_names_its_variable_and_its_flag():
    """RAG_TOP_K=0 said "use e.g. --top-k 5", pointing at a flag the user never typed."""
    with pytest.raises(RAGError, match=re.escape("use e.g. --top-k 5 or RAG_TOP_K=5")):
        get_config(env={"RAG_TOP_K": "0"})
    assert get_config(env={"RAG_CHUNKER": "Sentence", "RAG_RETRIEVAL": " BM25"}).chunker == "sentence", \
        "a choice is read whatever its case"


@pytest.mark.parametrize("name, raw, message", [
    ("RAG_INDEX_DIR", " ", "RAG_INDEX_DIR=' ' is blank"),  # made a folder named " "
    ("CHROMA_HOST", "\t", "CHROMA_HOST='\\t' is blank"),
    ("USE_OLLAMA", "maybe", "USE_OLLAMA='maybe' is not 1 or 0"),  # was ignored: offline models, silently
    ("LLM_MODEL", "openai/", "LLM_MODEL must be provider/model with the model named"),  # was "rejected the key"
])
def test_a_blank_or_unreadable_setting_is_an_error_not_a_guess(name, raw, message):
    with pytest.raises(RAGError, match=re.escape(message)) as info:
        get_config(env={name: raw})
    assert "unset it" in str(info.value) or "use e.g." in str(info.value), f"expected the fix in the message, got {info.value}"


def test_config_main_names_the_deciding_variable_but_never_the_key(monkeypatch):
    secret = "sk-test-THIS-MUST-NOT-BE-PRINTED"
    env = {"PATH": "/usr/bin:/bin", "OPENAI_API_KEY": secret, "RAG_INDEX_DIR": "/tmp/unused"}
    out = subprocess.run([sys.executable, str(CODE / "config.py")], capture_output=True, text=True,
                         env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "OPENAI_API_KEY" in out.stdout and "openai/" in out.stdout
    assert secret not in out.stdout + out.stderr


def test_unexpected_errors_are_one_line_unless_debugging(monkeypatch, capsys):
    from cli import run_cli

    def broken():
        raise ZeroDivisionError("division by zero")

    with pytest.raises(SystemExit) as info:
        run_cli(broken)
    assert info.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ZeroDivisionError" in err and "RAG_DEBUG=1" in err
    monkeypatch.setenv("RAG_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        run_cli(broken)


def test_a_tilde_in_the_index_folder_means_the_home_folder():
    """An auditor's RAG_INDEX_DIR='~/x' (quoted in the shell, or in .env, where no shell expands
    it) made a folder literally named "~" in the current one."""
    import os

    cfg = get_config({"RAG_INDEX_DIR": "~/rag-index"})
    assert cfg.index_dir == os.path.join(os.path.expanduser("~"), "rag-index"), f"expected the home folder, got {cfg.index_dir}"
