"""The offline default path: no LiteLLM import (it costs seconds) and no network."""

import json
import os
import subprocess
import sys
from pathlib import Path

CODE = Path(__file__).resolve().parents[1] / "code"


def test_offline_run_never_imports_litellm_and_works_without_network(tmp_path):
    env = dict(os.environ, RAG_INDEX_DIR=str(tmp_path / "index"))
    # conftest already points HTTP(S)_PROXY at a closed port: any network call would fail.
    out = subprocess.run([sys.executable, "-X", "importtime", str(CODE / "rag.py"), "--json"],
                         capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    imported = {line.split("|")[-1].strip().split(".")[0] for line in out.stderr.splitlines()
                if line.startswith("import time:")}
    assert "chromadb" in imported and "wordllama" in imported  # the measurement is real
    assert "litellm" not in imported and "openai" not in imported
    result = json.loads(out.stdout)
    assert result["model"] == "offline/extractive" and "4.2M" in result["answer"]
    # The README's quickstart shows this run's output: it must still be what the run prints.
    readme = (CODE.parent / "README.md").read_text(encoding="utf-8")
    shown = readme.split("## Quickstart", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    assert f"A: {result['answer']}" in shown
    for citation in result["citations"]:
        assert f"[{citation['id']}] p.{citation['page']} ({citation['source']}): \"{citation['quote']}\"" in shown
    assert f"Faithfulness: {result['faithfulness']['score']:.2f}" in shown


# Imports LiteLLM with every name lookup and connection recorded and refused, then waits for
# any background fetch LiteLLM starts at import (its model price map).
_NETWORK_PROBE = """
import socket, time
attempts = []
def refuse(*args, **kwargs):
    attempts.append(args[-1] if args else kwargs)
    raise OSError("refused by the test")
socket.getaddrinfo = lambda host, *a, **k: refuse(host)
socket.socket.connect = refuse
import litellm
time.sleep(1)
print(attempts)
"""


def test_a_test_that_imports_litellm_does_not_reach_for_the_network():
    # A test may import LiteLLM directly (to build its error types) before code/llm.py has had
    # the chance to ask it for its local price map; the test session must have asked already.
    out = subprocess.run([sys.executable, "-c", _NETWORK_PROBE], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ))
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]", (
        f"importing LiteLLM in the test session tried the network: {out.stdout.strip()}; "
        "set LITELLM_LOCAL_MODEL_COST_MAP=True for the whole session (conftest.py)")
