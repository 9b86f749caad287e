"""The real model path, end to end and offline: `rag.py` through LiteLLM against loopback servers.

Issue #13. `fake_providers.py` serves the OpenAI API (what LM Studio, vLLM and llama.cpp's server
speak too) and the Ollama API on 127.0.0.1; every test here runs the CLI as a user would,

    LLM_MODEL=openai/fake-chat EMBEDDING_MODEL=openai/fake-embed \\
    OPENAI_API_BASE=http://127.0.0.1:PORT/v1 OPENAI_API_KEY=test  python code/rag.py --json "..."

and checks what the user sees (stdout, stderr, exit code) and what the server saw (every request
is recorded). Faults are injected by the server: 401, 404, 429 once, 500, a hang, a non-JSON
body, an empty completion. Every failure must be one `error:` line on stderr, exit code 2, an
empty stdout, and an index with nothing half-written (an offline run over it still works).

Tests marked xfail(strict=True) describe behaviour that today's code gets wrong; each reason
names the defect. When the fix lands the test passes, strict xfail turns that into a failure,
and the marker must be removed.

Speed. A fresh interpreter that imports LiteLLM costs ~9 s of CPU (measured: `import litellm`
alone, LiteLLM 1.110). So every run here that does not depend on what happens while LiteLLM is
imported goes through a *launcher*: one process imports LiteLLM once, then forks a child per
run; the child sets the run's environment, argv and stdio and executes `code/rag.py` as
`__main__`, so exit code, stdout, stderr and environment are the child's own. The runs whose
result can depend on import-time settings (LiteLLM reads LITELLM_LOG when it is imported, and
that decides whether its INFO lines reach stdout) always start a fresh `python code/rag.py`.
Set RAG_TEST_FRESH_PROCESS=1 to run every case in a fresh interpreter (slower, same verdicts).
"""

from __future__ import annotations

import datetime
import importlib.util
import json
import math
import os
import re
import select
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from fake_providers import (BAD_GATEWAY, BROKEN_JSON, CHAT_MODEL, EMBEDDING_MODEL, EMPTY, HANG, NO_CHOICES, NOT_JSON,
                            RATE_LIMIT_ONCE, SERVER_ERROR, UNAUTHORIZED, FakeOllama, FakeOpenAI, embed,
                            ollama_server, openai_server)  # noqa: F401 - fixtures

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "What was Q3 revenue?"
ANSWER_SENTENCE = "Q3 revenue was 4.2M EUR, up 8% year over year."
TIMEOUT = 2.0  # RAG_REQUEST_TIMEOUT for every run
RETRIES = 1    # RAG_MAX_RETRIES for every run
# The launcher forks; without fork (Windows) every run starts a fresh interpreter.
FRESH_ALWAYS = (os.environ.get("RAG_TEST_FRESH_PROCESS", "").lower() in {"1", "true", "yes"}
                or not hasattr(os, "fork"))


# ------------------------------------------------------------------------------ running the CLI

# The launcher: imports LiteLLM (and Chroma) once, then runs one job per line of stdin in a
# forked child and answers with one line of JSON per job.
_LAUNCHER = r"""
import json, os, runpy, signal, sys, time, traceback
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import litellm, chromadb, numpy  # noqa: F401 - paid once, inherited by every child
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    sys.stdout.flush(); sys.stderr.flush()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.chdir(job["cwd"])
            os.environ.clear()
            os.environ.update(job["env"])
            null = os.open(os.devnull, os.O_RDONLY)
            out = os.open(job["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            err = os.open(job["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(null, 0); os.dup2(out, 1); os.dup2(err, 2)
            sys.argv = list(job["argv"])
            try:
                if job.get("code") is not None:  # as `python -c`: sys.path[0] is ""
                    exec(compile(job["code"], "<string>", "exec"), {"__name__": "__main__"})
                else:  # as `python script.py`: sys.path[0] is the script's folder
                    sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
                    runpy.run_path(sys.argv[0], run_name="__main__")
                code = 0
            except SystemExit as exc:
                if exc.code is None or isinstance(exc.code, int):
                    code = exc.code or 0
                else:
                    print(exc.code, file=sys.stderr)
            except BaseException:
                traceback.print_exc()
        finally:
            try:
                sys.stdout.flush(); sys.stderr.flush()
            finally:
                os._exit(code)
    deadline = started + job["timeout"]
    status = None
    while status is None:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(raw)
        elif time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        else:
            time.sleep(0.01)
    print(json.dumps({"rc": status}), flush=True)
"""


class Launcher:
    """The launcher process; `run` executes one job and returns (exit code, stdout, stderr)."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.jobs = 0
        self.proc = subprocess.Popen([sys.executable, "-c", _LAUNCHER], cwd=ROOT, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True"))
        first = self._read(timeout=300)
        assert first == {"ready": True}, first

    def _read(self, timeout: float) -> dict:
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            raise RuntimeError(f"the launcher did not answer (exit code {self.proc.poll()})")
        return json.loads(line)

    def run(self, argv: list[str], env: dict, timeout: float, code: str | None = None):
        self.jobs += 1
        out, err = self.tmp / f"job{self.jobs}.out", self.tmp / f"job{self.jobs}.err"
        job = {"argv": argv, "env": env, "cwd": str(ROOT), "stdout": str(out), "stderr": str(err),
               "timeout": timeout, "code": code}
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        rc = self._read(timeout + 30)["rc"]
        return rc, out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8")

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Run:
    """One CLI run: what the user saw and what the server saw."""

    rc: int
    stdout: str
    stderr: str
    requests: list[dict]
    index_dir: Path
    seconds: float  # the whole run
    after_first_request: float | None  # from the server's first request to the exit
    env: dict = field(repr=False, default_factory=dict)

    @property
    def result(self) -> dict:
        try:
            return json.loads(self.stdout)
        except ValueError as exc:
            raise AssertionError(f"stdout is not one JSON object ({exc}): {self.stdout[:600]!r}") from None

    def calls(self, kind: str) -> list[dict]:
        return [r for r in self.requests if r["kind"] == kind]


class CLI:
    """Runs `rag.py` against a fake server; a named case runs once per module and is cached."""

    def __init__(self, tmp_factory):
        self.tmp_factory = tmp_factory
        self.cache: dict[str, Run] = {}
        self._launcher: Launcher | None = None

    def launcher(self) -> Launcher:
        if self._launcher is None:
            self._launcher = Launcher(self.tmp_factory.mktemp("launcher"))
        return self._launcher

    def close(self) -> None:
        if self._launcher is not None:
            self._launcher.close()

    @staticmethod
    def base_env(index_dir: Path) -> dict:
        env = dict(os.environ)  # conftest has hidden keys and model overrides already
        for name in ("RAG_DEBUG", "OPENAI_BASE_URL", "OPENAI_API_BASE", "OLLAMA_API_BASE",
                     "LITELLM_LOG", "OLLAMA_API_KEY"):
            env.pop(name, None)
        # conftest points HTTP(S)_PROXY at a closed port; loopback must bypass it.
        env.update(NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost",
                   RAG_INDEX_DIR=str(index_dir), RAG_REQUEST_TIMEOUT=str(TIMEOUT),
                   RAG_MAX_RETRIES=str(RETRIES), PYTHONIOENCODING="utf-8")
        return env

    @staticmethod
    def provider_env(server) -> dict:
        if isinstance(server, FakeOllama):
            return {"LLM_MODEL": f"ollama/{CHAT_MODEL}", "EMBEDDING_MODEL": f"ollama/{EMBEDDING_MODEL}",
                    "OLLAMA_API_BASE": server.base_url}
        return {"LLM_MODEL": f"openai/{CHAT_MODEL}", "EMBEDDING_MODEL": f"openai/{EMBEDDING_MODEL}",
                "OPENAI_API_BASE": server.base_url, "OPENAI_API_KEY": "test"}

    def run(self, name: str, server, *, fault: str | None = None, fault_on: set[str] | None = None,
            env: dict | None = None, args: tuple[str, ...] = ("--json", QUESTION),
            fresh: bool = False, index_dir: Path | None = None, code: str | None = None,
            timeout: float = 150.0) -> Run:
        if name in self.cache:
            return self.cache[name]
        index_dir = index_dir or self.tmp_factory.mktemp(f"index_{name}")
        full_env = self.base_env(index_dir)
        if server is not None:
            full_env.update(self.provider_env(server))
            server.reset(fault, fault_on)
        for key, value in (env or {}).items():
            if value is None:
                full_env.pop(key, None)
            else:
                full_env[key] = value
        argv = ["code/rag.py", *args] if code is None else ["-c"]
        start = time.monotonic()
        if fresh or FRESH_ALWAYS:
            command = [sys.executable, *argv] if code is None else [sys.executable, "-c", code]
            try:
                done = subprocess.run(command, cwd=ROOT, env=full_env, capture_output=True,
                                      text=True, timeout=timeout, stdin=subprocess.DEVNULL)
                rc, stdout, stderr = done.returncode, done.stdout, done.stderr
            except subprocess.TimeoutExpired as exc:
                rc, stdout, stderr = -9, exc.stdout or "", exc.stderr or ""
        else:
            rc, stdout, stderr = self.launcher().run(argv, full_env, timeout, code)
        end = time.monotonic()
        requests = server.calls() if server is not None else []
        first = min((r["time"] for r in requests), default=None)
        run = Run(rc, stdout if isinstance(stdout, str) else stdout.decode(),
                  stderr if isinstance(stderr, str) else stderr.decode(), requests, index_dir,
                  end - start, None if first is None else end - first, full_env)
        self.cache[name] = run
        return run


@pytest.fixture(scope="module")
def cli(tmp_path_factory):
    runner = CLI(tmp_path_factory)
    yield runner
    runner.close()


@pytest.fixture(scope="module")
def openai_fake():
    with FakeOpenAI() as server:
        yield server


@pytest.fixture(scope="module")
def ollama_fake():
    with FakeOllama() as server:
        yield server


# ------------------------------------------------------------------------------ what every run must show

def collections(index_dir: Path) -> list:
    from config import get_config
    from store import get_client

    return get_client(get_config(index_dir=str(index_dir))).list_collections()


def assert_one_line_error(run: Run, *needles: str) -> str:
    """Exit 2, nothing on stdout, exactly one `error:` line on stderr (no traceback)."""
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.rc == 2, (run.rc, run.stderr[-2000:])
    assert run.stdout == "", run.stdout[:2000]
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr[-3000:]
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def assert_nothing_half_written(run: Run) -> None:
    """Every collection left in the index is complete, and an offline run over the same
    index folder works."""
    import rag
    from config import get_config

    for collection in collections(run.index_dir):
        assert (collection.metadata or {}).get("complete") is True, collection.metadata
    result = rag.run(QUESTION, cfg=get_config(index_dir=str(run.index_dir)))
    assert "4.2M" in result.answer.text and result.citations


def assert_correct_answer(run: Run, provider: str) -> dict:
    """rag.py answered from the server: the right sentence, cited and quoted, verified by the
    server, as pure JSON on stdout."""
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.rc == 0, run.stderr[-2000:]
    result = run.result  # stdout is one JSON object and nothing else
    assert result["model"] == f"{provider}/{CHAT_MODEL}"
    assert result["embedding_model"] == f"{provider}/{EMBEDDING_MODEL}"
    # The server's grounded rule answers with the sentence of the context sharing most words
    # with the question, cited: the pipeline must show it and quote the chunk it came from.
    assert result["answer"] == f"{ANSWER_SENTENCE[:-1]} [c0]."
    assert not result["refused"] and not result["uncited_claims"] and not result["dropped_citations"]
    source = next(hit["source"] for hit in result["retrieved"] if hit["id"] == "c0")
    assert result["citations"] == [{"id": "c0", "source": source, "page": 1, "page_label": None, "quote": ANSWER_SENTENCE}]
    # Faithfulness was computed by the server: one yes/no call per claim, all "Yes".
    faithfulness = result["faithfulness"]
    assert faithfulness["score"] == 1.0
    assert (faithfulness["claims"], faithfulness["verdicts"]) == ([ANSWER_SENTENCE], [True])
    chats = run.calls("chat")
    assert [c.get("verification") for c in chats] == [False] + [True] * len(faithfulness["claims"])
    assert all(c["model"] == CHAT_MODEL and c["status"] == 200 for c in chats)
    return result


def assert_index_holds_server_vectors(run: Run, provider: str) -> None:
    """The index was built with the server's embeddings: the server embedded every chunk and
    the question, the index records the model and its dimension, and the retrieval scores are
    the cosines of the server's vectors."""
    embeds = run.calls("embed")
    assert embeds and all(e["model"] == EMBEDDING_MODEL and e["status"] == 200 for e in embeds)
    built = [c for c in collections(run.index_dir)
             if (c.metadata or {}).get("embedding_model") == f"{provider}/{EMBEDDING_MODEL}"]
    assert len(built) == 1, [c.metadata for c in collections(run.index_dir)]
    meta = built[0].metadata
    assert meta["complete"] is True and meta["embedding_dim"] == len(embed("x"))
    # The build embeds every chunk, then the off-topic probes that set this model's relevance gate.
    probes = [line for line in (ROOT / "data" / "offtopic_probes.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    assert sum(e["n_inputs"] for e in embeds[:-1]) == meta["n_chunks"] + len(probes)
    assert embeds[-1]["n_inputs"] == 1  # the question
    question = embed(QUESTION)
    for hit in run.result["retrieved"]:
        vector = embed(hit["text"])
        cosine = sum(a * b for a, b in zip(question, vector))
        assert math.isclose(hit["score"], cosine, abs_tol=2e-4), (hit["id"], hit["score"], cosine)


# ------------------------------------------------------------------------------ the fake itself

def test_fake_server_rules_without_litellm(openai_server):
    """The fake's rules, over plain HTTP: a broken fake would make every test below lie."""
    import urllib.request

    def post(path: str, body: dict) -> dict:
        request = urllib.request.Request(openai_server.base_url + path, json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=5) as response:
            return json.loads(response.read())

    context = "<context>\n[c0] A new office opened. Q3 revenue was 4.2M EUR.\n[c1] Margin was 21%.\n</context>"
    ask = lambda q: post("/chat/completions", {"model": CHAT_MODEL, "messages": [  # noqa: E731
        {"role": "system", "content": "Cite ids."},
        {"role": "user", "content": f"{context}\n\nQuestion: {q}"}]})["choices"][0]["message"]["content"]
    assert ask("What was Q3 revenue?") == "Q3 revenue was 4.2M EUR [c0]."
    assert ask("Who founded Rome?") == "I don't know."
    verify = lambda claim: post("/chat/completions", {"model": CHAT_MODEL, "messages": [  # noqa: E731
        {"role": "system", "content": "Check the claim. Reply with one word: Yes or No."},
        {"role": "user", "content": f"Context:\n{context}\n\nClaim: {claim}"}]})["choices"][0]["message"]["content"]
    assert verify("Q3 revenue was 4.2M EUR.") == "Yes" and verify("Q3 revenue was 5.1M EUR.") == "No"
    vectors = post("/embeddings", {"model": EMBEDDING_MODEL, "input": ["revenue Q3", "revenue Q3"]})["data"]
    assert vectors[0]["embedding"] == vectors[1]["embedding"] == embed("revenue Q3")
    assert math.isclose(sum(v * v for v in vectors[0]["embedding"]), 1.0)
    assert [r["kind"] for r in openai_server.requests] == ["chat"] * 4 + ["embed"]


# ------------------------------------------------------------------------------ OpenAI-compatible server

def happy_openai(cli, openai_fake) -> Run:
    # Fresh interpreter: this is the learner's first run, import-time behaviour included.
    return cli.run("openai", openai_fake, fresh=True)


@pytest.mark.slow
def test_openai_compatible_server_answers_cites_and_verifies(cli, openai_fake):
    run = happy_openai(cli, openai_fake)
    assert_correct_answer(run, "openai")
    assert run.stderr == ""
    # The key went out (and is not recorded); every call went to the loopback server.
    assert all(r["has_key"] and r["headers"]["authorization"] == "<redacted>" for r in run.requests)


@pytest.mark.slow
def test_openai_compatible_index_is_built_with_the_server_embeddings(cli, openai_fake):
    assert_index_holds_server_vectors(happy_openai(cli, openai_fake), "openai")


_QUERY_WITH_ANOTHER_MODEL = """
import sys
sys.path.insert(0, "code")
from cli import run_cli
from config import get_config
from retriever import retrieve
from store import get_client

def main():
    cfg = get_config()
    client = get_client(cfg)
    for listed in client.list_collections():
        if (listed.metadata or {}).get("embedding_model") == "openai/fake-embed":
            retrieve(client.get_collection(listed.name, embedding_function=None), "Q3 revenue", 3, cfg)
            print("retrieved")

run_cli(main)
"""


@pytest.mark.slow
def test_index_built_by_the_server_refuses_another_embedding_model(cli, openai_fake):
    """Vectors from two models live in different spaces: querying the server-built index with
    WordLlama must stop with one line naming the model that built it. (rag.py itself keys each
    index by embedding model, so it would build a second index instead; this queries the
    server's index directly, as a notebook or a shared Chroma server would.)"""
    built = happy_openai(cli, openai_fake)
    assert built.rc == 0, built.stderr[-2000:]
    run = cli.run("another_model", None, index_dir=built.index_dir, code=_QUERY_WITH_ANOTHER_MODEL,
                  env={"EMBEDDING_MODEL": "offline/wordllama-l2-256", "LLM_MODEL": None})
    assert_one_line_error(run, "openai/fake-embed", "EMBEDDING_MODEL")


@pytest.mark.slow
def test_json_stays_pure_with_a_litellm_chat_model_and_offline_embeddings(cli, openai_fake):
    """The Groq/Anthropic setup: a LiteLLM chat model, offline WordLlama embeddings. WordLlama's
    import calls logging.basicConfig(level=INFO), and LiteLLM's handler writes records below
    WARNING to stdout, so unless the gateway quiets LiteLLM's loggers, --json stops being JSON.
    A fresh interpreter: how LiteLLM's logging is set up at import time is part of the test."""
    run = cli.run("mixed", openai_fake, fresh=True,
                  env={"EMBEDDING_MODEL": "offline/wordllama-l2-256"})
    assert run.rc == 0, run.stderr[-2000:]
    assert len(run.calls("chat")) == 2 and not run.calls("embed")  # the setup is what it says
    result = run.result  # stdout must be one JSON object and nothing else
    assert result["answer"].endswith("[c0].") and result["faithfulness"]["score"] == 1.0


@pytest.mark.slow
def test_failure_is_one_line_with_a_litellm_chat_model_and_offline_embeddings(cli, openai_fake):
    """Same setup, the chat call fails: no LiteLLM or OpenAI SDK log lines (retries, "completion()
    model=") around the one error line."""
    run = cli.run("mixed_500", openai_fake, fresh=True, fault=SERVER_ERROR, fault_on={"chat"},
                  env={"EMBEDDING_MODEL": "offline/wordllama-l2-256"})
    assert run.calls("chat") and run.calls("chat")[0]["status"] == 500
    assert_one_line_error(run)


# ------------------------------------------------------------------------------ faults

@pytest.mark.slow
def test_401_is_one_line_naming_the_key_variable(cli, openai_fake):
    run = cli.run("401", openai_fake, fault=UNAUTHORIZED)
    assert run.requests and run.requests[0]["status"] == 401
    assert_one_line_error(run, "OPENAI_API_KEY")
    assert_nothing_half_written(run)


@pytest.mark.slow
def test_404_unknown_model_is_one_line_naming_the_model_variable(cli, openai_fake):
    run = cli.run("404", openai_fake, env={"LLM_MODEL": "openai/no-such-model"})
    assert run.calls("chat")[0]["status"] == 404  # the server, not LiteLLM, said no
    assert_one_line_error(run, "no-such-model", "LLM_MODEL")
    assert_nothing_half_written(run)


@pytest.mark.slow
def test_429_once_is_retried_and_says_so(cli, openai_fake):
    run = cli.run("429", openai_fake, fault=RATE_LIMIT_ONCE)
    first, second = run.requests[:2]
    assert first["status"] == 429 and second["status"] == 200 and second["path"] == first["path"]
    assert_correct_answer(run, "openai")
    assert re.search(r"\bretr(y|ied|ying)\b", run.stderr, re.I), run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


@pytest.mark.slow
def test_500_is_one_line(cli, openai_fake):
    run = cli.run("500", openai_fake, fault=SERVER_ERROR)
    assert {r["status"] for r in run.requests} == {500}
    assert_one_line_error(run, "failed on its side", "try again")
    assert_nothing_half_written(run)


@pytest.mark.slow
def test_500_attempts_are_bounded_by_rag_max_retries(cli, openai_fake):
    run = cli.run("500", openai_fake, fault=SERVER_ERROR)
    assert run.rc == 2
    assert len(run.requests) <= 1 + RETRIES, [r["status"] for r in run.requests]


@pytest.mark.slow
def test_hang_past_the_request_timeout_is_one_line_in_bounded_time(cli, openai_fake):
    """A server that never answers: one line, exit 2, and the run ends within a generous
    multiple of RAG_REQUEST_TIMEOUT x (1 + RAG_MAX_RETRIES), measured from the first request
    (so LiteLLM's import time does not count)."""
    run = cli.run("hang", openai_fake, fault=HANG)
    assert run.requests and run.rc != -9, "the run had to be killed"
    assert_one_line_error(run, "RAG_REQUEST_TIMEOUT")
    assert_nothing_half_written(run)
    bound = 3 * TIMEOUT * (1 + RETRIES) + 3
    assert run.after_first_request <= bound, (round(run.after_first_request, 1), bound, len(run.requests))


@pytest.mark.slow
def test_non_json_body_is_one_line(cli, openai_fake):
    run = cli.run("not_json", openai_fake, fault=NOT_JSON, fault_on={"chat"})
    assert run.calls("chat") and run.calls("chat")[0]["status"] == 200  # a 200 with HTML
    assert_one_line_error(run, "not the provider's JSON", "OPENAI_BASE_URL")
    assert_nothing_half_written(run)


@pytest.mark.slow
def test_json_without_choices_points_at_the_base_url(cli, openai_fake):
    """A 200 with some other service's JSON (a wrong OPENAI_BASE_URL) said "the provider failed
    on its side; try again later" (an outside tester): trying again cannot help."""
    run = cli.run("no_choices", openai_fake, fault=NO_CHOICES, fault_on={"chat"})
    assert run.calls("chat") and run.calls("chat")[0]["status"] == 200
    assert_one_line_error(run, "not the provider's JSON", "OPENAI_BASE_URL")
    assert "try again later" not in run.stderr, run.stderr
    assert_nothing_half_written(run)


@pytest.mark.slow
def test_json_cut_off_mid_body_is_not_the_providers_failure(cli, openai_fake):
    """A 200 whose JSON body is malformed said "the provider failed on its side (... Received
    response - <APIResponse [200 OK] ...)" (an outside tester); the README's row says the reply
    was not the provider's JSON API, which is what to check."""
    run = cli.run("broken_json", openai_fake, fault=BROKEN_JSON, fault_on={"chat"})
    assert run.calls("chat") and run.calls("chat")[0]["status"] == 200
    assert_one_line_error(run, "not the provider's JSON", "OPENAI_BASE_URL")
    assert "failed on its side" not in run.stderr, run.stderr
    assert_nothing_half_written(run)


@pytest.mark.slow
def test_502_from_a_gateway_is_one_line_with_advice(cli, openai_fake):
    """A proxy's 502 printed LiteLLM's raw "provider error BadGatewayError: ..." (an outside tester)."""
    run = cli.run("bad_gateway", openai_fake, fault=BAD_GATEWAY, fault_on={"chat"})
    assert run.calls("chat") and run.calls("chat")[0]["status"] == 502
    assert_one_line_error(run, "gateway could not reach", "OPENAI_BASE_URL", "try again later")
    assert "provider error" not in run.stderr, run.stderr
    assert_nothing_half_written(run)


@pytest.mark.slow
def test_empty_completion_is_one_line(cli, openai_fake):
    """My call: an empty completion is an error, not a refusal. A refusal in this project means
    "the document does not say"; an empty reply says nothing about the document (a content
    filter, a reasoning model that spent its max_tokens, a broken server), so saying "I don't
    know" would mislead. Expected: one line naming the chat model, exit 2, stdout empty."""
    run = cli.run("empty", openai_fake, fault=EMPTY, fault_on={"chat"})
    assert run.calls("chat") and run.calls("chat")[0]["status"] == 200
    assert_one_line_error(run, f"openai/{CHAT_MODEL}")
    assert_nothing_half_written(run)


# ------------------------------------------------------------------------------ Ollama server

@pytest.mark.slow
def test_ollama_answers_cites_and_verifies(cli, ollama_fake):
    """`ollama/` sends chat to /api/generate (one rendered prompt) and embeddings to /api/embed."""
    run = cli.run("ollama", ollama_fake)
    assert_correct_answer(run, "ollama")
    assert run.stderr == ""
    assert {r["path"] for r in run.calls("chat")} == {"/api/generate"}
    assert {r["path"] for r in run.calls("embed")} == {"/api/embed"}
    assert_index_holds_server_vectors(run, "ollama")


@pytest.mark.slow
def test_ollama_chat_provider_uses_the_chat_endpoint(cli, ollama_fake):
    run = cli.run("ollama_chat", ollama_fake, env={"LLM_MODEL": f"ollama_chat/{CHAT_MODEL}"})
    assert run.rc == 0, run.stderr[-2000:]
    assert {r["path"] for r in run.calls("chat")} == {"/api/chat"}
    assert run.result["answer"] == f"{ANSWER_SENTENCE[:-1]} [c0]."
    assert run.result["faithfulness"]["score"] == 1.0


@pytest.mark.slow
def test_ollama_url_at_something_else_names_ollama_api_base(cli, ollama_fake):
    """An outside tester's OLLAMA_API_BASE at another web server was told to check "the network
    (a server's /v1 URL)": the variable to fix is OLLAMA_API_BASE, and Ollama's URL has no /v1."""
    run = cli.run("ollama_not_json", ollama_fake, fault=NOT_JSON)
    assert_one_line_error(run, "not the provider's JSON", "OLLAMA_API_BASE", "without /v1")
    assert_nothing_half_written(run)


@pytest.mark.slow
def test_ollama_model_not_pulled_is_one_line_naming_the_model_variable(cli, ollama_fake):
    run = cli.run("ollama_404", ollama_fake, env={"LLM_MODEL": "ollama/llama3.2"})
    assert run.calls("chat") and run.calls("chat")[0]["status"] == 404
    assert_one_line_error(run, "llama3.2", "LLM_MODEL")
    assert_nothing_half_written(run)


# ------------------------------------------------------------------------------ defaults

def _model_map() -> dict:
    """The installed LiteLLM's bundled model map, read without importing LiteLLM (seconds)."""
    spec = importlib.util.find_spec("litellm")
    path = Path(spec.origin).parent / "model_prices_and_context_window_backup.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _defaults() -> list[tuple[str, str]]:
    """(key variable, model) of every cloud default: config.PROVIDERS (or the older
    CLOUD_PROVIDERS tuples), wherever the gateway keeps them."""
    for name in ("config", "llm"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "PROVIDERS"):
            return [(p.key_variable, model) for p in module.PROVIDERS
                    for model in (p.chat_model, p.embedding_model) if model]
        if hasattr(module, "CLOUD_PROVIDERS"):
            return [(key, model) for key, chat, embedding in module.CLOUD_PROVIDERS
                    for model in (chat, embedding) if model]
    raise LookupError("no provider table found in config.py or llm.py; update this test")


def test_cloud_defaults_are_current_in_the_installed_model_map():
    """Every default is in LiteLLM's bundled map under its provider, and not past (or within
    90 days of) its deprecation date, so an upgrade cannot silently break a first run."""
    known, today = _model_map(), datetime.date.today()
    problems = []
    for key, model in _defaults():
        provider, name = model.split("/", 1)
        entry = known.get(model) or known.get(name)
        if entry is None or entry.get("litellm_provider") != provider:
            problems.append(f"{model} ({key}): not in the model map")
        elif entry.get("deprecation_date") and datetime.date.fromisoformat(
                entry["deprecation_date"]) <= today + datetime.timedelta(days=90):
            problems.append(f"{model} ({key}): deprecated on {entry['deprecation_date']}")
    assert not problems, problems
