"""The starter edition teaches: tools/make_starter.py checked end to end.  [reference only, CI]

One starter is generated per session into a temp dir, then (a) no solution survives, (b) the
failing tests are exactly the learner tests, each failure one line naming its milestone, (c) the
tests of provided code pass, (d) the reference learner modules copied back turn its suite green,
(e) every module's main either runs or names the missing milestone, without a traceback, and the
chunker and retriever run once M1 is done. The starter can never drift from the reference.

Run:  python -m pytest tests/test_starter.py    (about 20 s: the starter's suite runs twice, in parallel)
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from milestones import learner_modules as modules_with_regions
from milestones import regions

# Each run builds a starter and runs its test suite twice: minutes, so CI runs it with -m slow.
pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parent.parent
MAKE_STARTER = REPO / "tools" / "make_starter.py"
FAILURE_LINE = re.compile(r"^(M\d+) not implemented yet: (\w+) \((code/[\w/]+\.py)\)( - this m\d+ test needs it first)?$")
DOCUMENTS = ["UNDERSTANDING.md", "FAILURE_ANALYSIS.md", "EVALUATION.md", "STARCALLOS_REFLECTION.md"]
# What each main says in the starter as generated (None: it runs) and once M1 is done. Other
# modules that import learner code are run too and must either run or name a milestone.
MAINS_AS_IS = {"pdf_loader": None, "chunker": "M1", "retriever": "M1", "generator": "M3",
               "faithfulness": "M5", "rag": "M1"}
MAINS_AFTER_M1 = {"chunker": None, "retriever": None, "generator": "M3"}


def learner_modules() -> dict[str, str]:
    """Reference modules that hold solution regions: repo-relative path -> source."""
    return {p.relative_to(REPO).as_posix(): p.read_text(encoding="utf-8") for p in modules_with_regions(REPO / "code")}


def region_bodies(path: str, text: str) -> list[str]:
    lines = text.splitlines()
    return ["\n".join(lines[first + 1:last]) for first, last, *_ in regions(text, path)]


def without_regions(path: str, text: str) -> str:
    lines = text.splitlines()
    for first, last, *_ in reversed(regions(text, path)):
        del lines[first:last + 1]
    return "\n".join(lines)


def offline_env(index_dir: Path) -> dict[str, str]:
    # The same isolation as conftest.py, for processes started before its fixture applies.
    hidden = ("LLM_MODEL", "EMBEDDING_MODEL", "USE_OLLAMA", "OLLAMA_MODEL", "PYTEST_ADDOPTS")
    env = {k: v for k, v in os.environ.items()
           if k not in hidden and not k.endswith("_API_KEY") and not k.startswith(("RAG_", "CHROMA_"))}
    env.update(RAG_INDEX_DIR=str(index_dir), HF_HUB_OFFLINE="1", COLUMNS="200",
               HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9")
    return env


def pytest_in(folder: Path, *args: str) -> subprocess.Popen:
    env = offline_env(folder.parent / f"index-{folder.name}")
    env["PYTHONPATH"] = str(REPO / "tests")  # for -p starter_probe
    return subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:randomly", "-q", "--milestones", *args],
                            cwd=folder, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            text=True, encoding="utf-8", errors="replace")


def start_mains(folder: Path, modules) -> dict[str, subprocess.Popen]:
    """Start `python code/<module>.py` for each module, each with its own index dir."""
    return {m: subprocess.Popen([sys.executable, f"code/{m}.py"], cwd=folder,
                                env=offline_env(folder.parent / f"index-{folder.name}-{m}"),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                text=True, encoding="utf-8", errors="replace")
            for m in modules}


def finish(running: dict[str, subprocess.Popen]) -> dict[str, subprocess.CompletedProcess]:
    done = {}
    for name, process in running.items():
        out, err = process.communicate(timeout=300)
        done[name] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    return done


def uses_learner_code(folder: Path) -> set[str]:
    """Modules with a main that import a learner module, directly or through another module."""
    sources = {p.stem: p.read_text(encoding="utf-8") for p in (folder / "code").glob("*.py")}
    imports = {m: set(re.findall(r"^\s*(?:from|import) (\w+)", s, re.M)) & set(sources) for m, s in sources.items()}
    reaching = {Path(p).stem for p in learner_modules()}
    while True:
        more = {m for m, deps in imports.items() if deps & reaching} - reaching
        if not more:
            break
        reaching |= more
    return {m for m in reaching if "run_cli(main)" in sources[m]}


def junit(path: Path) -> dict[str, dict]:
    """test id -> {"milestone", "failed", "message"} from a --junitxml file."""
    results = {}
    for case in ET.parse(path).iter("testcase"):
        properties = {p.get("name"): p.get("value") for p in case.iter("property")}
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        results[f"{case.get('classname')}::{case.get('name')}"] = {
            "milestone": properties.get("milestone"), "failed": failure is not None,
            "stubs_called": properties.get("stubs_called"),
            "message": None if failure is None else failure.get("message")}
    return results


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    root = tmp_path_factory.mktemp("starter")
    dest = root / "p04"
    made = subprocess.run([sys.executable, str(MAKE_STARTER), str(dest)], capture_output=True, text=True,
                          timeout=120)
    assert made.returncode == 0, made.stderr
    # What the starter was made from (the working tree may change while this module runs).
    reference_code = {p.relative_to(REPO): p.read_bytes() for p in (REPO / "code").rglob("*.py")}
    restored, after_m1 = root / "restored", root / "after_m1"
    shutil.copytree(dest, restored)
    shutil.copytree(dest, after_m1)
    for path in learner_modules():
        (restored / path).write_bytes(reference_code[Path(path)])
    (after_m1 / "code" / "chunker.py").write_bytes(reference_code[Path("code/chunker.py")])

    # Everything below is independent, so it all runs at once: the wall time is about the
    # total CPU time over the two cores, instead of its sum.
    # The restored run leaves out the two tests that import LiteLLM (about 6 s of import alone):
    # they run in the reference suite on the same code, which the green test asserts byte for byte.
    suites = {"green": pytest_in(restored, "-x", "-k", "not real_litellm"),
              "as_is": pytest_in(dest, "-p", "starter_probe", f"--junitxml={root / 'as_is.xml'}")}
    mains = start_mains(dest, sorted(set(MAINS_AS_IS) | uses_learner_code(dest)))
    mains_after_m1 = start_mains(after_m1, MAINS_AFTER_M1)
    suites, mains, mains_after_m1 = finish(suites), finish(mains), finish(mains_after_m1)
    return {"dest": dest, "restored": restored, "made": made, "reference_code": reference_code,
            "as_is": (suites["as_is"].returncode, suites["as_is"].stdout, junit(root / "as_is.xml")),
            "green": (suites["green"].returncode, suites["green"].stdout),
            "mains": mains, "mains_after_m1": mains_after_m1}


def milestone_lines(output: str) -> dict[str, str]:
    """M1..M6 -> its status, from the milestone report at the end of a run."""
    report = output.split("= milestones =")[-1]
    return {m.group(1): m.group(2) for m in re.finditer(r"^(M\d+)\s+(done|failing|not started|not run)\b",
                                                         report, re.M)}


# ----------------------------------------------------------------------------- (a) no solution survives

def test_no_solution_body_survives_and_each_region_is_its_stub(starter):
    dest = starter["dest"]
    for path in dest.rglob("*"):
        if path.is_file() and path.suffix in {".py", ".md", ".toml", ".txt", ".example"}:
            text = path.read_text(encoding="utf-8", errors="replace")
            assert not re.search(r"^\s*# (BEGIN|END) SOLUTION", text, re.M), path

    modules = learner_modules()
    outside = "\n".join(without_regions(path, text) for path, text in modules.items())
    outside += "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "code").rglob("*.py")
                         if p.relative_to(REPO).as_posix() not in modules)
    # Distinctive lines: long enough to be specific, and found nowhere outside the regions.
    distinctive = {line.strip() for path, text in modules.items() for body in region_bodies(path, text)
                   for line in body.splitlines() if len(line.strip()) >= 20 and line.strip() not in outside}
    assert len(distinctive) >= 10, "too few distinctive solution lines for this check to mean anything"
    starter_code = "\n".join(p.read_text(encoding="utf-8") for p in (dest / "code").rglob("*.py"))
    survivors = sorted(line for line in distinctive if line in starter_code)
    assert not survivors, f"solution lines survived in the starter: {survivors[:5]}"

    for path, text in modules.items():
        reference = {n.name: n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef)}
        stubbed = {n.name: n for n in ast.walk(ast.parse((dest / path).read_text(encoding="utf-8")))
                   if isinstance(n, ast.FunctionDef)}
        for *_, name in regions(text, path):
            assert ast.get_docstring(stubbed[name]) == ast.get_docstring(reference[name]), name
            body = stubbed[name].body[1:] if ast.get_docstring(stubbed[name]) else stubbed[name].body
            assert len(body) == 1 and isinstance(body[0], ast.Raise), f"{path}: {name} is not one raise"
            message = body[0].exc.args[0].value
            assert re.fullmatch(rf"M\d+: implement {name} in {path} \(.+\) — see source/lesson\.agent\.md §7",
                                message), message


def test_reference_only_parts_are_not_copied_and_documents_are_templates(starter):
    dest = starter["dest"]
    for name in ("tests", ".ci", ".git"):
        assert not (dest / name).exists(), name
    tools = sorted(p.name for p in (dest / "tools").iterdir()) if (dest / "tools").exists() else []
    assert tools == ["fetch_devset.py"], f"of tools/, the starter holds only the dev-set fetcher; got {tools}"
    for name in ("code/tests", "sources", "data", "pyproject.toml", ".env.example", "conftest.py", "README.md"):
        assert (dest / name).exists(), name
    for name in DOCUMENTS:
        template = (dest / name).read_text(encoding="utf-8")
        assert template.startswith("# ") and ("_Your answer._" in template or "___" in template), name
        reference = REPO / name
        if reference.is_file():
            # Headings, tables and questions are the template; every other long line is an answer.
            prose = [line.strip() for line in reference.read_text(encoding="utf-8").splitlines()
                     if len(line.strip()) >= 40 and not line.lstrip().startswith(("#", "|", ">"))
                     and not line.rstrip().endswith("?")]
            leaked = [line for line in prose if line in template]
            assert not leaked, f"{name}: reference answers leaked into the template: {leaked[:3]}"


def test_a_non_empty_dest_is_refused_without_force(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    refused = subprocess.run([sys.executable, str(MAKE_STARTER), str(tmp_path)], capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode == 2 and not refused.stdout
    assert refused.stderr.startswith("error: ") and "--force" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "code").exists()


# ----------------------------------------------------------------------------- (b), (c) the starter's suite

def test_failing_tests_are_exactly_the_learner_tests_each_naming_its_milestone(starter):
    returncode, output, results = starter["as_is"]
    assert returncode == 1, output[-3000:]
    stubs = {(m, f, p) for p, text in learner_modules().items() for *_, m, f in regions(text, p)}
    failed = {test: r for test, r in results.items() if r["failed"]}
    # A learner test is one that calls a stub: none of them passes (e.g. by swallowing the error).
    swallowed = [t for t, r in results.items() if r["stubs_called"] and not r["failed"]]
    assert not swallowed, f"these tests call a stub and still pass: {swallowed}"
    named = set()
    for test, r in failed.items():
        # ...and every failure is a learner test failing for a stub (a subprocess's counts too).
        assert r["milestone"], f"{test}: a test of provided code fails in the starter: {r['message']}"
        match = FAILURE_LINE.match(r["message"] or "")
        assert match, f"{test}: not a one-line milestone failure: {r['message']!r}"
        milestone, function, path = match.group(1), match.group(2), match.group(3)
        assert (milestone, function, path) in stubs, r["message"]
        assert int(milestone[1:]) <= int(r["milestone"][1:]), f"{test} waits for a later milestone"
        named.add(function)
    assert named == {f for _, f, _ in stubs}, "every learner function is named by some failing test"
    assert {r["milestone"] for r in failed.values()} == {f"m{n}" for n in range(1, 7)}
    # The learner sees short lines, not tracebacks through provided code.
    assert "Traceback" not in output and "raise NotImplementedError" not in output
    assert milestone_lines(output) == {f"M{n}": "not started" for n in range(1, 7)}
    assert "next: M1 - implement chunk_text in code/chunker.py" in output


def test_tests_of_provided_code_pass(starter):
    _, output, results = starter["as_is"]
    provided = {t: r for t, r in results.items() if not r["milestone"]}
    assert {t.split("::")[0] for t in provided} >= {"code.tests.test_config", "code.tests.test_pdf_loader"}
    assert not [t for t, r in provided.items() if r["failed"]], output[-3000:]


# ----------------------------------------------------------------------------- (d) reference back in: green

def test_reference_learner_modules_turn_the_starter_green(starter):
    returncode, output = starter["green"]
    assert returncode == 0, output[-3000:]
    assert milestone_lines(output) == {f"M{n}": "done" for n in range(1, 7)}
    assert "next: all milestones done" in output
    # Stubbing touched nothing but the regions: the restored code is the reference code.
    for rel, reference in starter["reference_code"].items():
        assert (starter["restored"] / rel).read_bytes() == reference, rel


# ----------------------------------------------------------------------------- (e) the mains

def _assert_main(result: subprocess.CompletedProcess, module: str, missing: str | None) -> None:
    r"""missing: None (it runs), "M3" (it names M3), or r"M\d+" (runs or names some milestone)."""
    assert "Traceback" not in result.stderr + result.stdout, f"{module}: {result.stderr[-2000:]}"
    if missing is None or (missing == r"M\d+" and result.returncode == 0):
        assert result.returncode == 0, f"{module}: {result.stderr}"
        assert result.stdout.strip(), f"{module} printed nothing"
    else:
        lines = result.stderr.strip().splitlines()
        assert result.returncode == 2 and len(lines) == 1, f"{module}: {result.stderr}"
        assert re.match(rf"error: {missing}: implement \w+ in code/\w+\.py", lines[0]), f"{module}: {lines[0]}"


def test_mains_name_the_missing_milestone_or_run(starter):
    mains = starter["mains"]
    assert set(MAINS_AS_IS) <= set(mains)
    for module, result in mains.items():
        _assert_main(result, module, MAINS_AS_IS.get(module, r"M\d+"))


def test_chunker_and_retriever_run_once_m1_is_done(starter):
    for module, missing in MAINS_AFTER_M1.items():
        _assert_main(starter["mains_after_m1"][module], module, missing)
