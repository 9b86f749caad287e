"""Two small model servers on 127.0.0.1 for exercising the real LiteLLM path with no network.

* `FakeOpenAI`: the OpenAI HTTP API as LiteLLM's `openai/` provider (and LM Studio, vLLM or
  llama.cpp's server) speaks it: `POST /v1/chat/completions`, `POST /v1/embeddings`,
  `GET /v1/models`.
* `FakeOllama`: the Ollama HTTP API as LiteLLM's `ollama/` provider (`POST /api/generate`),
  `ollama_chat/` provider (`POST /api/chat`) and embeddings (`POST /api/embed`, plus the legacy
  `/api/embeddings`) call it; `/api/show` (LiteLLM's model-info lookup), `/api/tags`, `/api/version`.

Both answer with the same simple, deterministic rules, so a test can predict every reply:

* chat: the context lines `[id] text` and the `Question:` are read from the messages; the reply
  is the context sentence sharing the most content words with the question, followed by its
  `[id]` citation, or "I don't know." when no sentence shares a content word;
* yes/no claim verification (a system prompt asking for "Yes" or "No"): "Yes" when every number
  in the claim occurs in the context, else "No";
* embeddings: a hashed bag of content words, `EMBEDDING_DIM` wide, L2-normalised (base64 float32
  when the client asks for `encoding_format=base64`, as the OpenAI SDK does).

Faults are chosen per server by setting `server.fault` (and optionally `server.fault_on`, the
request kinds it applies to: {"chat", "embed"}); every request is recorded in `server.requests`
(path, kind, model, status, header names with keys redacted), so a test can assert, for
example, that a 429 was followed by a retry. `unknown_model` is also what any model outside
`server.models` gets, as from a real server.

Use them as context managers or through the `openai_server` / `ollama_server` fixtures below:

    with FakeOpenAI() as server:
        env["OPENAI_API_BASE"] = server.base_url        # http://127.0.0.1:PORT/v1
        ...
        assert [r["kind"] for r in server.requests] == [...]

Run alone:  python tests/fake_providers.py [openai|ollama]   (serves until Ctrl-C, prints its URL)
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

EMBEDDING_DIM = 64
CHAT_MODEL = "fake-chat"
EMBEDDING_MODEL = "fake-embed"

# Fault modes (the value of `server.fault`).
UNAUTHORIZED = "unauthorized"        # 401 with the provider's error body
UNKNOWN_MODEL = "unknown_model"      # 404 model not found
RATE_LIMIT_ONCE = "rate_limit_once"  # 429 on the first matching request, then normal answers
SERVER_ERROR = "server_error"        # 500 on every matching request
HANG = "hang"                        # sleep `hang_seconds` before answering (past any client timeout)
NOT_JSON = "not_json"                # 200 with an HTML page instead of JSON
EMPTY = "empty"                      # a well-formed completion whose content is ""
BAD_GATEWAY = "bad_gateway"          # 502 with a proxy's HTML page (the server behind it is down)
NO_CHOICES = "no_choices"            # 200 with JSON that is no completion (a base URL of another API)
BROKEN_JSON = "broken_json"          # 200 declared JSON, cut off mid-body (a proxy that dropped the rest)
FAULTS = (UNAUTHORIZED, UNKNOWN_MODEL, RATE_LIMIT_ONCE, SERVER_ERROR, HANG, NOT_JSON, EMPTY)

_STOPWORDS = frozenset("""
a an the and or but if of to in on at by for from with without into onto over under about as is
are was were be been being am do does did done have has had having this that these those it its
he she they them their his her we us our you your i me my what which who whom whose when where
why how than then there here so such not no nor can could would should will shall may might must
also just only very more most much many any some each every all both either neither per via up
down out off again further once one
""".split())
_WORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
_CONTEXT_LINE = re.compile(r"^\s*\[([\w.:-]+)\]\s+(.+?)\s*$", re.M)
_REDACT = {"authorization", "api-key", "x-api-key", "x-goog-api-key"}


# ------------------------------------------------------------------------------ the rules

def content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOPWORDS]


def embed(text: str, dim: int = EMBEDDING_DIM) -> list[float]:
    """A deterministic unit vector: content words hashed into `dim` buckets, counts damped."""
    counts = [0.0] * dim
    for word in content_words(text) or ["\x00"]:
        bucket = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big") % dim
        counts[bucket] += 1.0
    vector = [math.log1p(c) for c in counts]
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector]


def is_verification(system: str) -> bool:
    """Does the system prompt ask for a one-word yes/no verdict on a claim?"""
    lowered = system.lower()
    return "claim" in lowered and "yes" in lowered and "no" in lowered


def verify(user: str) -> str:
    """'Yes' when every number of the claim occurs in the context, else 'No'."""
    context, _, claim = user.rpartition("Claim:")
    context_numbers = set(_NUMBER.findall(context))
    return "Yes" if all(n in context_numbers for n in _NUMBER.findall(claim)) else "No"


def grounded_answer(user: str) -> str:
    """The context sentence sharing most content words with the question, with its citation."""
    body, _, question = user.rpartition("Question:")
    wanted = set(content_words(question or user))
    best, best_overlap = None, 0
    for chunk_id, text in _CONTEXT_LINE.findall(body):
        for sentence in _SENTENCE_END.split(text):
            overlap = len(wanted & set(content_words(sentence)))
            if overlap > best_overlap:
                best, best_overlap = (chunk_id, sentence.strip()), overlap
    if best is None:
        return "I don't know."
    chunk_id, sentence = best
    return f"{sentence.rstrip('.!? ')} [{chunk_id}]."


def reply_to(system: str, user: str, scripted: str | None = None) -> str:
    """The verdict for a verification prompt; else the scripted answer, if the test set one."""
    return verify(user) if is_verification(system) else scripted or grounded_answer(user)


def split_messages(messages: list[dict]) -> tuple[str, str]:
    """(all system text, the last user message) of an OpenAI-style message list."""
    def text(content) -> str:
        if isinstance(content, list):  # content parts
            return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
        return content or ""

    system = "\n".join(text(m.get("content")) for m in messages if m.get("role") == "system")
    users = [text(m.get("content")) for m in messages if m.get("role") == "user"]
    return system, users[-1] if users else ""


def split_prompt(prompt: str) -> tuple[str, str]:
    """(system, user) of the single prompt LiteLLM's `ollama/` provider renders for
    /api/generate: '### System:\\n...\\n\\n### User:\\n...'."""
    system = user = ""
    for role, text in re.findall(r"### (System|User|Assistant):\n(.*?)(?=\n### (?:System|User|Assistant):\n|\Z)",
                                 prompt, re.S):
        if role == "System":
            system += text
        elif role == "User":
            user = text
    return system, (user or prompt)


# ------------------------------------------------------------------------------ the servers

class _Handler(BaseHTTPRequestHandler):
    server_version = "FakeProvider/1.0"
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # keep pytest's output clean
        pass

    def do_GET(self) -> None:
        self.server.owner._handle(self, "GET")

    def do_POST(self) -> None:
        self.server.owner._handle(self, "POST")


class FakeProvider:
    """Base: a threaded HTTP server on a free loopback port with fault injection and a log."""

    kind = "base"

    def __init__(self, models: tuple[str, ...] = (CHAT_MODEL, EMBEDDING_MODEL),
                 api_key: str | None = None, hang_seconds: float = 30.0):
        self.models = set(models)
        self.api_key = api_key  # when set, any other bearer key gets a 401
        self.hang_seconds = hang_seconds
        self.fault: str | None = None
        self.fault_on: set[str] = {"chat", "embed"}
        self.scripted_answer: str | None = None  # what every answering request gets, when set
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._faulted_once = False
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle
    def start(self) -> "FakeProvider":
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.owner = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, name=f"fake-{self.kind}",
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes a hanging handler
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join(timeout=5)
            self._httpd = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def reset(self, fault: str | None = None, fault_on: set[str] | None = None) -> None:
        with self._lock:
            self.requests.clear()
            self.fault, self._faulted_once = fault, False
            self.fault_on = set(fault_on or {"chat", "embed"})

    # -- what tests read
    def calls(self, kind: str | None = None) -> list[dict]:
        with self._lock:
            return [r for r in self.requests if kind is None or r["kind"] == kind]

    # -- request handling
    def _handle(self, handler: _Handler, method: str) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = None
        path = handler.path.split("?", 1)[0]
        kind = self.route_kind(method, path)
        model = (body.get("model") or body.get("name")) if isinstance(body, dict) else None
        record = {"method": method, "path": path, "kind": kind, "model": model,
                  "headers": {k.lower(): ("<redacted>" if k.lower() in _REDACT else v)
                              for k, v in handler.headers.items()},
                  "has_key": any(k.lower() in _REDACT for k in handler.headers.keys()),
                  "time": time.monotonic(), "status": None}  # None until answered
        if kind == "chat" and isinstance(body, dict):
            system, _ = self.chat_texts(body)
            record["verification"] = is_verification(system)
        if kind == "embed" and isinstance(body, dict):
            record["n_inputs"] = len(self.embed_inputs(body))
        with self._lock:
            self.requests.append(record)
        status, headers, payload = self._respond(handler, method, path, kind, body, model)
        record["status"] = status
        self._send(handler, status, headers, payload)

    def _respond(self, handler, method, path, kind, body, model):
        if kind is None:
            return self.error(404, f"no route {method} {path}", "not_found")
        if kind in ("chat", "embed") and not isinstance(body, dict):
            return self.error(400, "the request body is not JSON", "invalid_request_error")
        fault = self.fault if kind in self.fault_on else None
        if fault == RATE_LIMIT_ONCE:
            with self._lock:
                fault, self._faulted_once = (None if self._faulted_once else fault), True
        if self.api_key is not None and kind in ("chat", "embed"):
            given = (handler.headers.get("Authorization") or "").removeprefix("Bearer ").strip()
            if given != self.api_key:
                fault = UNAUTHORIZED
        if fault == UNAUTHORIZED:
            return self.error(401, "Incorrect API key provided: te**. You can find your API key "
                                   "at https://platform.openai.com/account/api-keys.", "invalid_api_key")
        if fault == UNKNOWN_MODEL or (kind in ("chat", "embed", "show") and model not in self.models):
            return self.model_not_found(model)
        if fault == RATE_LIMIT_ONCE:
            status, headers, payload = self.error(429, "Rate limit reached for requests; please "
                                                       "try again in 0s.", "rate_limit_exceeded")
            return status, {**headers, "Retry-After": "0"}, payload
        if fault == SERVER_ERROR:
            return self.error(500, "The server had an error while processing your request.",
                              "server_error")
        if fault == HANG:
            self._stopping.wait(self.hang_seconds)
        if fault == NOT_JSON:
            return 200, {"Content-Type": "text/html"}, b"<html><body>502 Bad Gateway</body></html>"
        if fault == BAD_GATEWAY:
            return 502, {"Content-Type": "text/html"}, b"<html><body><h1>502 Bad Gateway</h1>nginx</body></html>"
        if fault == NO_CHOICES:
            return 200, {}, {"status": "ok", "service": "inventory", "version": "2.1"}
        if fault == BROKEN_JSON:
            return 200, {}, b'{"id": "chatcmpl-1", "choices": [{"index": 0, "message": {"role": "assis'

        return self.answer(kind, body, empty=(fault == EMPTY))

    @staticmethod
    def _send(handler, status: int, headers: dict, payload) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        try:
            handler.send_response(status)
            headers = {"Content-Type": "application/json", **headers}
            for name, value in headers.items():
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout)
            pass

    # -- what a subclass defines
    def route_kind(self, method: str, path: str) -> str | None:
        raise NotImplementedError

    def chat_texts(self, body: dict) -> tuple[str, str]:
        return split_messages(body.get("messages") or [])

    def embed_inputs(self, body: dict) -> list[str]:
        raise NotImplementedError

    def error(self, status: int, message: str, code: str):
        raise NotImplementedError

    def model_not_found(self, model):
        raise NotImplementedError

    def answer(self, kind: str, body: dict, empty: bool):
        raise NotImplementedError


class FakeOpenAI(FakeProvider):
    """OpenAI-compatible: base_url is http://127.0.0.1:PORT/v1 (OPENAI_API_BASE)."""

    kind = "openai"

    @property
    def base_url(self) -> str:
        return self.url + "/v1"

    def route_kind(self, method, path):
        return {("POST", "/v1/chat/completions"): "chat", ("POST", "/v1/embeddings"): "embed",
                ("GET", "/v1/models"): "models"}.get((method, path.rstrip("/")))

    def embed_inputs(self, body):
        given = body.get("input")
        return [given] if isinstance(given, str) else list(given or [])

    def error(self, status, message, code):
        kind = {401: "invalid_request_error", 404: "invalid_request_error",
                429: "requests", 500: "server_error"}.get(status, "invalid_request_error")
        return status, {}, {"error": {"message": message, "type": kind, "param": None, "code": code}}

    def model_not_found(self, model):
        return self.error(404, f"The model `{model}` does not exist or you do not have access to it.",
                          "model_not_found")

    def answer(self, kind, body, empty):
        now = int(time.time())
        if kind == "models":
            return 200, {}, {"object": "list", "data": [
                {"id": m, "object": "model", "created": now, "owned_by": "fake"} for m in sorted(self.models)]}
        if kind == "embed":
            texts = self.embed_inputs(body)
            base64_wanted = body.get("encoding_format") == "base64"
            data = []
            for i, text in enumerate(texts):
                vector = embed(str(text))
                if base64_wanted:
                    vector = base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()
                data.append({"object": "embedding", "index": i, "embedding": vector})
            tokens = sum(len(str(t).split()) for t in texts)
            return 200, {}, {"object": "list", "data": data, "model": body["model"],
                             "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}
        if body.get("stream"):
            return self.error(400, "the fake server does not stream", "unsupported")
        system, user = self.chat_texts(body)
        text = "" if empty else reply_to(system, user, self.scripted_answer)
        prompt_tokens = len((system + " " + user).split())
        return 200, {}, {
            "id": f"chatcmpl-fake{len(self.requests)}", "object": "chat.completion", "created": now,
            "model": body["model"], "system_fingerprint": "fp_fake",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "logprobs": None, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": len(text.split()),
                      "total_tokens": prompt_tokens + len(text.split())}}


class FakeOllama(FakeProvider):
    """Ollama API: base url http://127.0.0.1:PORT (OLLAMA_API_BASE). Model names may carry a
    tag (`llama3.2:latest`); the tag is ignored when checking `models`."""

    kind = "ollama"

    @property
    def base_url(self) -> str:
        return self.url

    def route_kind(self, method, path):
        return {("POST", "/api/chat"): "chat", ("POST", "/api/generate"): "chat",
                ("POST", "/api/embed"): "embed", ("POST", "/api/embeddings"): "embed",
                ("POST", "/api/show"): "show", ("GET", "/api/tags"): "models",
                ("GET", "/api/version"): "version"}.get((method, path.rstrip("/")))

    def chat_texts(self, body):
        if "messages" in body:
            return split_messages(body.get("messages") or [])
        system, user = split_prompt(body.get("prompt") or "")
        return (body.get("system") or "") + system, user

    def embed_inputs(self, body):
        given = body.get("input", body.get("prompt"))
        return [given] if isinstance(given, str) else list(given or [])

    def _respond(self, handler, method, path, kind, body, model):
        if isinstance(body, dict) and model:
            body["model"] = model = model.split(":", 1)[0] if model.endswith(":latest") else model
        return super()._respond(handler, method, path, kind, body, model)

    def error(self, status, message, code):
        return status, {}, {"error": message}

    def model_not_found(self, model):
        return self.error(404, f'model "{model}" not found, try pulling it first', "not_found")

    def answer(self, kind, body, empty):
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        if kind == "version":
            return 200, {}, {"version": "0.0.0-fake"}
        if kind == "models":
            return 200, {}, {"models": [{"name": f"{m}:latest", "model": f"{m}:latest"}
                                        for m in sorted(self.models)]}
        if kind == "show":
            return 200, {}, {"template": "{{ .Prompt }}", "model_info": {"fake.context_length": 8192},
                             "details": {"family": "fake"}}
        if kind == "embed":
            texts = self.embed_inputs(body)
            if "input" not in body:  # legacy /api/embeddings: one prompt, one vector
                return 200, {}, {"embedding": embed(str(texts[0]) if texts else "")}
            return 200, {}, {"model": body["model"], "embeddings": [embed(str(t)) for t in texts],
                             "prompt_eval_count": sum(len(str(t).split()) for t in texts)}
        if body.get("stream"):
            return self.error(400, "the fake server does not stream", "unsupported")
        system, user = self.chat_texts(body)
        text = "" if empty else reply_to(system, user, self.scripted_answer)
        common = {"model": body["model"], "created_at": now, "done": True, "done_reason": "stop",
                  "prompt_eval_count": len((system + " " + user).split()),
                  "eval_count": len(text.split())}
        if "messages" in body:  # /api/chat
            return 200, {}, {**common, "message": {"role": "assistant", "content": text}}
        return 200, {}, {**common, "response": text}  # /api/generate


# ------------------------------------------------------------------------------ fixtures

@pytest.fixture
def openai_server():
    """A FakeOpenAI on a free loopback port for one test, stopped after it."""
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def ollama_server():
    """A FakeOllama on a free loopback port for one test, stopped after it."""
    with FakeOllama() as server:
        yield server


def main() -> None:
    server_class = FakeOllama if sys.argv[1:2] == ["ollama"] else FakeOpenAI
    with server_class() as server:
        print(f"{server_class.__name__} on {server.base_url} "
              f"(models: {', '.join(sorted(server.models))}); Ctrl-C to stop", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
