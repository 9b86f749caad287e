"""Test isolation shared by code/tests (the guiding tests) and tests (project-level checks).

Every test runs offline: provider keys and model overrides from the shell or .env are hidden,
and the index lives in a temporary folder, so no test touches the network or your .rag_index/.
Tests marked `provider` get the original environment back and are skipped without a key.

Milestone feedback (mostly for the starter edition): a failure caused by a learner function that
is still a stub is one line naming its milestone, and `python -m pytest --milestones` ends with
M1..M6 as done / failing / not started and the next step (see the end of this file).
"""

import os
import re
from pathlib import Path

import pytest

_ORIGINAL_ENV = dict(os.environ)
_HIDDEN_PREFIXES = ("RAG_", "CHROMA_")
_HIDDEN = {"LLM_MODEL", "EMBEDDING_MODEL", "USE_OLLAMA", "OLLAMA_MODEL", "GROQ_API_KEY",
           "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"}


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("rag_index"))


@pytest.fixture(autouse=True)
def offline_env(monkeypatch, index_dir, request):
    monkeypatch.setenv("RAG_INDEX_DIR", index_dir)
    if request.node.get_closest_marker("provider"):
        return
    for name in list(os.environ):
        if name in _HIDDEN or name.startswith(_HIDDEN_PREFIXES):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAG_INDEX_DIR", index_dir)  # deleted with the other RAG_* just above
    # Belt and braces: anything that still tries the network fails fast instead of hanging.
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def provider_key():
    """The first real provider key in the original environment, or None."""
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GROQ_API_KEY", "GEMINI_API_KEY"):
        if _ORIGINAL_ENV.get(name):
            return name
    return None


# ------------------------------------------------------------------ milestone feedback
# In the starter a learner function is a stub that raises
#   NotImplementedError("M1: implement chunk_text in code/chunker.py (...) — see source/lesson.agent.md §7")
# A failure caused by one is reported as one line, "M1 not implemented yet: chunk_text
# (code/chunker.py)", not as a traceback through provided code; and a milestone report
# (M1..M6 done / failing / not started, and the next step) ends every run that hit a stub,
# or any run with --milestones.

_STUB = re.compile(r"\b(M\d+): implement (\w+) in (\S+)")
_MILESTONE_MARKER = re.compile(r"m(\d+)")
_LESSON = "source/lesson.agent.md §7"
_DOCUMENTS = "UNDERSTANDING.md, FAILURE_ANALYSIS.md, EVALUATION.md and STARCALLOS_REFLECTION.md"
# nodeid -> (milestone marker or None, passed, (milestone, function, path) when a stub failed it)
_OUTCOMES: dict[str, tuple[str | None, bool, tuple[str, str, str] | None]] = {}


def pytest_addoption(parser):
    parser.addoption("--milestones", action="store_true",
                     help="end with the milestone report: M1..M6 done / failing / not started, and the next step")
    parser.addini("learner_functions", type="linelist", default=[],
                  help='"M<n> function path" per learner function (written by tools/make_starter.py)')


def learner_functions(config) -> list[tuple[str, str, str]]:
    """(milestone, function, path) of every learner function: from the starter's pyproject, or
    in the reference from the '# BEGIN SOLUTION M<n>' markers in code/."""
    listed = [tuple(line.split()) for line in config.getini("learner_functions") if line.strip()]
    if listed:
        return listed
    found = []
    for module in sorted((config.rootpath / "code").glob("*.py")):
        function = None
        for line in module.read_text(encoding="utf-8").splitlines():
            if m := re.match(r"\s*def (\w+)", line):
                function = m.group(1)
            elif (m := re.match(r"\s*# BEGIN SOLUTION (M\d+)", line)) and function:
                found.append((m.group(1), function, f"code/{module.name}"))
    return found


def _missing_function(excinfo, item) -> tuple[str, str, str] | None:
    """(milestone, function, path) when the failure comes from a not yet implemented learner
    function: a stub's NotImplementedError anywhere in the exception chain, or a stub's message
    inside another error (e.g. a subprocess's stderr quoted by an assert)."""
    exc, seen = excinfo.value, set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, NotImplementedError) and (match := _STUB.search(str(exc))):
            return match.groups()
        # A subprocess's "error: M1: implement ..." quoted by an assert, in a milestone test,
        # while that function is still a stub here.
        match = _STUB.search(str(exc))
        if match and _milestone_of(item) and _still_a_stub(item.config, *match.groups()[1:]):
            return match.groups()
        if isinstance(exc, NotImplementedError):  # a hand-written stub without the message
            frame = excinfo.traceback[-1]
            known = {f: (m, f, p) for m, f, p in learner_functions(item.config)}
            name = frame.frame.code.name
            try:
                path = Path(frame.path).relative_to(item.config.rootpath).as_posix()
            except ValueError:
                path = str(frame.path)
            return known.get(name, ("", name, path))
        exc = exc.__cause__ or exc.__context__
    return None


def _milestone_of(item) -> str | None:
    return next((m.name for m in item.iter_markers() if _MILESTONE_MARKER.fullmatch(m.name)), None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    milestone = _milestone_of(item)
    if report.when == "setup" and milestone:
        item.user_properties.append(("milestone", milestone))  # shows up in --junitxml
    missing = _missing_function(call.excinfo, item) if report.failed and call.excinfo else None
    if missing:
        stub_milestone, function, path = missing
        line = f"{stub_milestone} not implemented yet: {function} ({path})".strip()
        if milestone and stub_milestone and milestone != stub_milestone.lower():
            line += f" - this {milestone} test needs it first"
        report.longrepr = line
        report.sections = []  # what a stub's caller printed says nothing about the stub
        item.user_properties.append(("not_implemented", f"{stub_milestone} {function} {path}"))
    if report.when == "call" or report.failed:
        previous = _OUTCOMES.get(report.nodeid, (milestone, True, None))
        _OUTCOMES[report.nodeid] = (milestone, previous[1] and not report.failed, previous[2] or missing)
    return report


def _still_a_stub(config, function: str, path: str) -> bool:
    module = config.rootpath / path
    return module.is_file() and re.search(
        rf"NotImplementedError\(\s*[\"']M\d+: implement {re.escape(function)} in",
        module.read_text(encoding="utf-8")) is not None


def milestone_report(config) -> list[str]:
    """The report's lines: one per milestone declared in the pytest markers, then the next step."""
    declared = {}
    for line in config.getini("markers"):
        if m := re.match(r"m(\d+):\s*(?:milestone \d+\s*-\s*)?(.*)", line):
            declared[int(m.group(1))] = m.group(2).strip()
    functions = learner_functions(config)
    lines, next_step = [], None
    for n in sorted(declared):
        name = f"M{n}"
        own = [(f, p) for m, f, p in functions if m == name]
        stubs = [(f, p) for f, p in own if _still_a_stub(config, f, p)]
        results = [r for r in _OUTCOMES.values() if r[0] == f"m{n}"]
        failed = [r for r in results if not r[1]]
        waits_for = sorted({r[2][0] for r in failed if r[2]} - {name, ""}, key=lambda m: int(m[1:]))
        if not results:
            status, detail = "not run", "deselected"
        elif not failed:
            status, detail = "done", f"{len(results)} tests pass"
        elif all(r[2] for r in failed) and len(stubs) == len(own):
            status = "not started"
            detail = (f"write {', '.join(f for f, _ in stubs)}" if stubs else "") or \
                f"waits for {', '.join(waits_for)}"
        else:
            status = "failing"
            detail = f"{len(failed)} of {len(results)} tests fail"
            if stubs:
                detail += f"; still to write: {', '.join(f for f, _ in stubs)}"
        lines.append(f"M{n}  {status:<12}{declared[n]:<58}{detail}")
        if next_step is None and status in ("not started", "failing"):
            if stubs:
                function, path = stubs[0]
                next_step = (f"next: M{n} - implement {function} in {path} ({_LESSON}), "
                             f"then run: python -m pytest -m m{n}")
            elif waits_for:
                next_step = f"next: {waits_for[0]} first; M{n} waits for it"
            else:
                next_step = f"next: M{n} - make its tests pass: python -m pytest -m m{n}"
    if next_step is None:
        if any(line.split()[1] == "not" and line.split()[2] == "run" for line in lines):
            next_step = "next: run every milestone: python -m pytest --milestones"
        else:
            next_step = f"next: all milestones done; write {_DOCUMENTS} (source/lesson.agent.md §5, §6)"
    return lines + [next_step]


def pytest_sessionstart(session):
    _OUTCOMES.clear()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    hit_a_stub = any(r[2] for r in _OUTCOMES.values())
    if not (config.getoption("milestones") or hit_a_stub):
        return
    terminalreporter.write_sep("=", "milestones")
    for line in milestone_report(config):
        terminalreporter.write_line(line)
