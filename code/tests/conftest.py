"""Milestone feedback for the guiding tests (mostly for the starter edition).

A failure caused by a learner function that is still a stub is reported as one line naming its
milestone, "M1 not implemented yet: chunk_text (code/chunker.py)", not as a traceback through
provided code; and a milestone report (M1..M6 done / failing / not started, and the next step)
is the last block of every run that hit a stub, or of any run with --milestones.
"""

import re
from pathlib import Path

import pytest

import milestones

# In the starter a learner function is a stub that raises
#   NotImplementedError("M1: implement chunk_text in code/chunker.py (...) — see source/lesson.agent.md §7")

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
    in the reference from the solution markers in code/."""
    listed = [tuple(line.split()) for line in config.getini("learner_functions") if line.strip()]
    return listed or milestones.learner_functions(config.rootpath)


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


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    # Outermost wrapper: the report comes after pytest's short summary of failures, last.
    yield
    hit_a_stub = any(r[2] for r in _OUTCOMES.values())
    if not (config.getoption("milestones") or hit_a_stub):
        return
    terminalreporter.write_sep("=", "milestones")
    for line in milestone_report(config):
        terminalreporter.write_line(line)


@pytest.fixture
def litellm_calls():
    """Every call that really reached LiteLLM, as {"prompt": its messages' text, "temperature", "max_tokens"},
    read by LiteLLM's own callback API: what a model would have been sent."""
    import litellm
    from litellm.integrations.custom_logger import CustomLogger

    calls = []

    class Spy(CustomLogger):
        def log_pre_api_call(self, model, messages, kwargs):
            params = kwargs.get("optional_params") or {}
            calls.append({"prompt": " ".join(m.get("content") or "" for m in messages),
                          "temperature": params.get("temperature"), "max_tokens": params.get("max_tokens")})

    litellm.callbacks = [Spy()]
    yield calls
    litellm.callbacks = []
