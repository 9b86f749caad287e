"""The curriculum agrees with the code: required documents exist and hold no placeholders, every
`sources/...` reference resolves, every code symbol the spec and the lesson name exists in
code/, lesson §7 lists M1-M6, and the §4 guided examples print exactly what the lesson shows."""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CODE = ROOT / "code"
PROJECT = ROOT / "source" / "project.md"
LESSON = ROOT / "source" / "lesson.agent.md"

REQUIRED = [
    "README.md", "source/project.md", "source/lesson.agent.md", "source/rubric.md",
    "source/resources.md", "UNDERSTANDING.md", "STARCALLOS_REFLECTION.md", "sources/README.md",
    "sources/papers/rag-paper.md", "sources/papers/ragas.md",
    "sources/official-docs/anthropic-citations.md", "sources/articles/chunking-strategies.md",
    "sources/official-docs/chromadb.md", "sources/official-docs/litellm.md",
]
PLACEHOLDER = re.compile(r"\bTODO\b|\bTBD\b|\blorem\b|coming soon|\bFIXME\b|\bXXX\b", re.I)
SKIP_DIRS = {".git", ".hypothesis", ".rag_index", ".ruff_cache", ".benchmarks", "node_modules",
             "build", "dist", ".venv", "__pycache__"}
# Names in backticks that belong to libraries, not to us.
EXTERNAL = {"PersistentClient", "HttpClient", "PdfReader", "WordLlama", "BM25",
            "RecursiveCharacterTextSplitter", "ceil"} | set(dir(builtins))
EXTERNAL_PREFIXES = {"litellm", "chromadb", "np", "numpy", "pypdf", "bm25s", "wordllama", "os",
                     "sys", "re", "pytest", "response", "reply", "result", "report", "c", "m"}


def markdown_files() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.md")
                  if not SKIP_DIRS & set(p.relative_to(ROOT).parts) and "egg-info" not in str(p))


def strip_fences(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


# --------------------------------------------------------------------------- files and text

@pytest.mark.parametrize("name", REQUIRED)
def test_required_file_exists_and_is_not_empty(name):
    path = ROOT / name
    assert path.is_file(), f"{name} is missing"
    assert len(path.read_text(encoding="utf-8").strip()) > 200, f"{name} is (nearly) empty"


def test_no_placeholder_text():
    offenders = []
    for path in markdown_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PLACEHOLDER.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
    assert not offenders, "placeholder text:\n" + "\n".join(offenders)


def test_every_sources_reference_resolves():
    missing = []
    for path in markdown_files():
        for ref in re.findall(r"(?<![\w/.])sources/[\w./-]*", path.read_text(encoding="utf-8")):
            ref = ref.rstrip(".,;:)")
            if "..." in ref or ref == "sources/":
                continue
            if not (ROOT / ref).exists():
                missing.append(f"{path.relative_to(ROOT)}: {ref}")
    assert not missing, "unresolved sources/ references:\n" + "\n".join(missing)


def test_reading_notes_have_the_required_shape():
    for path in sorted((ROOT / "sources").rglob("*.md")):
        if path.name == "README.md":
            continue
        text = path.read_text(encoding="utf-8")
        head = text.splitlines()[:4]
        for i, field in enumerate(("**Type:**", "**Tier:**", "**URL:**", "**Accessed:**")):
            assert head[i].startswith(field), f"{path.relative_to(ROOT)} line {i + 1}: expected {field}"
        for section in ("## Why This Source Matters", "## Key Claims", "## Relevant To"):
            assert section in text, f"{path.relative_to(ROOT)} lacks {section}"


# --------------------------------------------------------------------------- code symbols

def code_names() -> tuple[set[str], dict[str, set[str]], set[str]]:
    """(all names defined in code/*.py, names per module and per class, string literals)."""
    everything: set[str] = set()
    scoped: dict[str, set[str]] = {}
    literals: set[str] = set()
    for path in CODE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = scoped.setdefault(path.stem, set())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                everything.add(node.name)
            if isinstance(node, ast.ClassDef):
                members = scoped.setdefault(node.name, set())
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        members.add(item.name)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        members.add(item.target.id)
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.update(re.findall(r"[A-Z][A-Z0-9_]+", node.value))
            if isinstance(node, ast.arg):
                everything.add(node.arg)
        for item in tree.body:
            targets = []
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                targets = [item.name]
            elif isinstance(item, ast.Assign):
                targets = [t.id for t in item.targets if isinstance(t, ast.Name)]
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                targets = [item.target.id]
            module.update(targets)
            everything.update(targets)
    return everything, scoped, literals


def unknown_symbols(text: str) -> list[str]:
    everything, scoped, literals = code_names()
    config_fields = scoped["Config"]
    problems = []
    for span in re.findall(r"`([^`\n]+)`", strip_fences(text)):
        # dotted names: module.attr or Class.attr of ours
        for owner, attr in re.findall(r"\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b", span):
            if owner in scoped and not (owner == attr or attr in {"py", "md"}):
                if attr not in scoped[owner]:
                    problems.append(f"{owner}.{attr}")
        # calls: name(...)
        for prefix, name in re.findall(r"(?:\b([A-Za-z_]\w*)\.)?\b([A-Za-z_]\w*)\(", span):
            if prefix and prefix not in scoped:
                continue  # a library's function (litellm.completion, ...)
            if name not in everything and name not in EXTERNAL and prefix not in EXTERNAL_PREFIXES:
                problems.append(f"{name}()")
        # bare identifiers that look like ours
        bare = span.strip()
        if not re.fullmatch(r"[A-Za-z_]\w*", bare):
            continue
        if bare.startswith("_") or re.fullmatch(r"(?:[A-Z][a-z0-9]+){2,}|[A-Z][a-z]+Error", bare):
            if bare not in everything and bare not in EXTERNAL:
                problems.append(bare)
        elif re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+", bare):
            if bare.startswith("RAG_"):
                if bare[4:].lower() not in config_fields:
                    problems.append(f"{bare} (no Config field {bare[4:].lower()})")
            elif bare not in everything and bare not in literals:
                problems.append(bare)
    return sorted(set(problems))


@pytest.mark.parametrize("doc", [PROJECT, LESSON], ids=["project.md", "lesson.agent.md"])
def test_code_symbols_named_in_the_docs_exist(doc):
    problems = unknown_symbols(doc.read_text(encoding="utf-8"))
    assert not problems, f"{doc.name} names symbols that code/ does not define: {problems}"


def test_symbol_check_catches_a_wrong_name():
    assert unknown_symbols("call `chunk_textt(text)` and `retriever.buildindex` and `RAG_TOPK`")


# --------------------------------------------------------------------------- lesson structure

def section(text: str, number: int) -> str:
    match = re.search(rf"^## §{number}\b.*?(?=^## )", text, flags=re.S | re.M)
    assert match, f"lesson has no '## §{number}' section"
    return match.group(0)


def test_lesson_has_every_section():
    text = LESSON.read_text(encoding="utf-8")
    for number in range(1, 11):
        section(text + "\n## end", number)
    for heading in ("## Learning objectives", "## Prerequisite check", "## Core concepts",
                    "## Instructor notes"):
        assert heading in text, f"lesson lacks {heading}"


def test_section_7_lists_milestones_m1_to_m6_with_their_markers():
    milestones = section(LESSON.read_text(encoding="utf-8"), 7)
    for n in range(1, 7):
        assert re.search(rf"^### M{n}\b", milestones, re.M), f"§7 lacks a '### M{n}' heading"
        assert f"-m m{n}" in milestones, f"§7 does not say how M{n} is validated (-m m{n})"


def test_section_5_has_seven_questions_and_understanding_answers_them():
    questions = re.findall(r"^\d+\. ", section(LESSON.read_text(encoding="utf-8"), 5), re.M)
    assert len(questions) == 7
    answers = re.findall(r"^## \d+\.", (ROOT / "UNDERSTANDING.md").read_text(encoding="utf-8"), re.M)
    assert len(answers) == 7


# --------------------------------------------------------------------------- §4 examples

def guided_examples() -> list[tuple[str, str]]:
    text = section(LESSON.read_text(encoding="utf-8"), 4)
    pairs = re.findall(r"```python\n(.*?)```\s*```text\n(.*?)```", text, flags=re.S)
    assert len(pairs) >= 5, "§4 should hold python blocks each followed by its text output"
    return pairs


def test_every_python_block_in_section_4_is_followed_by_its_output():
    text = section(LESSON.read_text(encoding="utf-8"), 4)
    assert text.count("```python") == len(guided_examples())


@pytest.mark.parametrize("n", range(7))
def test_guided_example_prints_what_the_lesson_shows(n):
    examples = guided_examples()
    if n >= len(examples):
        pytest.skip("fewer examples")
    code, expected = examples[n]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"<lesson §4 example {n + 1}>", "exec"), {"__name__": "__lesson__"})
    assert out.getvalue().rstrip("\n") == expected.rstrip("\n")
