"""The curriculum agrees with the code: required documents exist and hold no placeholders, every
`sources/...` reference resolves, every code symbol the spec and the lesson name exists in
code/, lesson §7 lists M1-M6, and the §4 guided examples print exactly what the lesson shows."""

from __future__ import annotations

import ast
import builtins
import contextlib
import dataclasses
import functools
import inspect
import io
import json
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
             "build", "dist", ".venv", "venv", "site-packages", "__pycache__"}  # a venv made inside the clone too
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


# --------------------------------------------------------------------------- claims checked by running the code
# What the docs say the code does is run here, so a doc cannot drift from the code unnoticed.

CLAIM_DOCS = ["UNDERSTANDING.md", "STARCALLOS_REFLECTION.md", "FAILURE_ANALYSIS.md",
              "source/lesson.agent.md", "source/project.md"]
SAMPLE_QUESTIONS = ROOT / "data" / "sample_questions.jsonl"
# "`python code/rag.py --json "Q"` shows the gate's decision, `"passed": false`" or
# "`python code/rag.py "Q"` is refused by the gate": Q must be refused before any model call.
GATE_REFUSES = re.compile(r'`python code/rag\.py (?:--json )?"([^"`]+)"`,? (?:shows the gate\'s decision, '
                          r'`"passed": false`|is refused by the gate)')
# "`python code/rag.py "Q"` refuses (the model refuses: the question passes the relevance gate)".
MODEL_REFUSES = re.compile(r'`python code/rag\.py "([^"`]+)"` refuses \(the model refuses: the question '
                           r'passes the relevance gate\)')
INJECTION_COUNT = re.compile(r"(\d+) of the (\d+) sample questions pass the gate with the injected instruction")
INJECTION_WHOLE = re.compile(r"injected instruction [^.;]*?\(in (\d+) of them whole")
# The offline verifier's verdicts the lesson and FAILURE_ANALYSIS.md show (claim -> verdict): a number
# bound to another subject is rejected, a number written another way is accepted.
VERIFIER_CONTEXT = "Q3 revenue 4.2M, margin 21%."
VERIFIER_CLAIMS = {"Revenue was 21%.": False, "Revenue was 4.2 million.": True}
# Statements once in these docs and shown false by running the code; none may come back.
REFUTED = {
    r"\b(?:F|it) is a lower bound": "offline F is no lower bound: the verifier also accepts some false "
                                    "claims (names swapped in a table row, EVALUATION.md)",
    r"stricter than a real model": "the offline verifier errs both ways (EVALUATION.md, labelled claims)",
    r"generation problem by definition": "low F with high CR suggests a generation problem, it does not prove it",
    r"second run is faster": "nothing shows speed; point to the line saying the index was reused",
    r"follows? (?:its|that|the) (?:system )?(?:message|prompt) as written": "the offline model matches "
                                                                            "rules by wording",
    r"keeps untrusted, irrelevant text[^.]*away from the model": "the gate passes injected text "
                                                                 "(see INJECTION_COUNT)",
}
NUMBER_WORDS = {w: n for n, w in enumerate("zero one two three four five six seven eight nine ten eleven "
                                           "twelve thirteen fourteen fifteen sixteen seventeen eighteen "
                                           "nineteen twenty".split())}


def normalised(text: str) -> str:
    """One line: docs wrap sentences (and backtick spans) across lines."""
    return " ".join(text.split())


def doc_text(name: str) -> str:
    return normalised((ROOT / name).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def _run(question: str):
    # Called from inside a test, so conftest's offline environment and temp index apply.
    import rag

    return rag.run(question)


def test_gate_examples_in_the_docs_are_refused_by_the_gate():
    found = {name: GATE_REFUSES.findall(doc_text(name)) for name in CLAIM_DOCS}
    for name in ("STARCALLOS_REFLECTION.md", "source/lesson.agent.md"):
        assert found[name], (f"{name} should name a question the relevance gate refuses, as "
                             f'`python code/rag.py --json "..."` shows the gate\'s decision, `"passed": false`')
    for name, questions in found.items():
        for question in questions:
            gate = _run(question).gate
            assert gate["passed"] is False, (
                f'{name} says the relevance gate refuses "{question}", but rag.run passes it '
                f"(best score {gate['best_score']} >= threshold {gate['threshold']}); name a question "
                f"the gate refuses, or say it is refused by the model")


def test_model_refusal_examples_in_the_docs_pass_the_gate_and_are_refused():
    questions = MODEL_REFUSES.findall(doc_text("source/lesson.agent.md"))
    assert questions, "lesson §7 M6 should name an off-document question the model (not the gate) refuses"
    for question in questions:
        result = _run(question)
        assert result.gate["passed"] is True, (
            f'lesson §7 M6 says "{question}" passes the relevance gate and the model refuses it, but the '
            f"gate refuses it (best score {result.gate['best_score']} < {result.gate['threshold']})")
        assert result.answer.refused, (f'lesson §7 M6 says the model refuses "{question}", but it answers: '
                                       f"{result.answer.text!r}")


def test_injection_counts_in_the_docs_match_the_pipeline():
    from pdf_loader import SAMPLE_PAGES

    sample = normalised(" ".join(SAMPLE_PAGES))
    match = re.search(r"Ignore all previous instructions[^.]*\.", sample)
    assert match, "the sample report no longer holds the injected 'Ignore all previous instructions ...' line"
    sentence, start = match.group(0), "Ignore all previous instructions"
    questions = [json.loads(line)["question"] for line in SAMPLE_QUESTIONS.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
    passed = [_run(q) for q in questions]
    passed = [r for r in passed if r.gate["passed"]]
    with_start = sum(any(start in c.text for c in r.context) for r in passed)
    with_whole = sum(any(sentence in normalised(c.text) for c in r.context) for r in passed)
    stated = {name: (INJECTION_COUNT.findall(doc_text(name)), INJECTION_WHOLE.findall(doc_text(name)))
              for name in CLAIM_DOCS}
    assert stated["UNDERSTANDING.md"][0], ("UNDERSTANDING.md §5 should say how many sample questions pass the "
                                           "gate with the injected instruction in their context")
    for name, (counts, wholes) in stated.items():
        for count, total in counts:
            assert (int(count), int(total)) == (with_start, len(questions)), (
                f"{name} says {count} of the {total} sample questions pass the gate with the injected "
                f"instruction in their context; rag.run measures {with_start} of {len(questions)}")
        for whole in wholes:
            assert int(whole) == with_whole, (
                f"{name} says the injected instruction is whole in {whole} of them; rag.run measures "
                f"{with_whole} (the others hold it cut by a chunk boundary)")


def test_offline_verifier_examples_in_the_docs_hold():
    from chunker import Chunk
    from faithfulness import check_faithfulness

    for name in ("source/lesson.agent.md", "FAILURE_ANALYSIS.md"):
        text = doc_text(name)
        for claim in VERIFIER_CLAIMS:
            assert claim in text and VERIFIER_CONTEXT in text, (
                f'{name} should show the offline verifier\'s verdict on "{claim}" against "{VERIFIER_CONTEXT}"')
    for claim, expected in VERIFIER_CLAIMS.items():
        verdicts = check_faithfulness(claim, [Chunk("c0", VERIFIER_CONTEXT)]).verdicts
        assert verdicts == [expected], (
            f'lesson §3.6 and FAILURE_ANALYSIS.md §2 say the offline verifier {"accepts" if expected else "rejects"} '
            f'"{claim}" against "{VERIFIER_CONTEXT}", but check_faithfulness gives {verdicts}; update both')


@pytest.mark.parametrize("pattern", sorted(REFUTED))
def test_statements_shown_false_do_not_come_back(pattern):
    paths = [ROOT / n for n in CLAIM_DOCS] + sorted((ROOT / "sources").rglob("*.md"))
    hits = [p.relative_to(ROOT).as_posix() for p in paths
            if re.search(pattern, normalised(p.read_text(encoding="utf-8")), re.I)]
    assert not hits, f"{hits} say /{pattern}/, which is false of the code: {REFUTED[pattern]}"


def test_env_example_matches_the_config_defaults():
    from config import Config

    defaults = {f.name: f.default for f in dataclasses.fields(Config)}
    code_text = "\n".join(p.read_text(encoding="utf-8") for p in CODE.glob("*.py"))
    checked, problems = set(), []
    for n, line in enumerate((ROOT / ".env.example").read_text(encoding="utf-8").splitlines(), 1):
        match = re.match(r"#?\s*(RAG_([A-Z0-9_]+))=(\S*)", line)
        if not match:
            continue
        variable, name, value = match.group(1), match.group(2).lower(), match.group(3)
        if name not in defaults:
            if variable not in code_text:
                problems.append(f".env.example:{n}: {variable} is neither a Config field nor read in code/")
            continue
        default = defaults[name]
        if value == "" and default is not None:
            continue  # left blank for the user to fill in
        if default is None:  # unset by default (the gate: the embedding model's own): shown blank
            same = value == ""
        else:
            same = (Path(default).name == value.rstrip("/") if name == "index_dir"
                    else type(default)(value) == default)
        checked.add(name)
        if not same:
            problems.append(f".env.example:{n}: {variable}={value}, but config.Config's default is {default!r}")
    assert "min_relevance" in checked, ".env.example should show RAG_MIN_RELEVANCE with its default"
    assert not problems, "\n".join(problems)


def _configured_models() -> dict[str, tuple[str, str]]:
    """What each way of choosing a model gives, from config.py: {variable: (chat, embeddings)}."""
    import config

    offline = config.OFFLINE_EMBEDDING_MODEL
    return {"": (config.OFFLINE_CHAT_MODEL, offline),
            "USE_OLLAMA": ("ollama_chat/" + config.OLLAMA_CHAT_MODEL, config.OLLAMA_EMBEDDING_MODEL),
            **{p.key_variable: (p.chat_model, p.embedding_model or offline) for p in config.PROVIDERS}}


def test_readme_provider_table_lists_exactly_the_configured_models():
    """README "Use a real model": one row per provider of config.PROVIDERS, in its order (the order
    of precedence), plus offline and Ollama, each with the models config.py resolves to."""
    import config

    section = re.search(r"^## Use a real model\n(.*?)(?=^## )", (ROOT / "README.md").read_text(encoding="utf-8"),
                        re.S | re.M)
    assert section, "README.md lost its '## Use a real model' section"
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.group(1).splitlines() if line.startswith("|")]
    assert rows and rows[0][2:] == ["chat model", "embeddings"], f"README provider table header changed: {rows[:1]}"
    table = {}
    for row in rows[2:]:
        variable = re.match(r"`(\w+)=", row[1])
        if variable and variable.group(1) in {"LLM_MODEL", "EMBEDDING_MODEL"}:
            continue  # the "a favourite model" row names no model
        models = [re.findall(r"`([\w.:-]+/[\w.:/-]+)`", cell) for cell in row[2:4]]
        table[variable.group(1) if variable else ""] = tuple(m[0] if len(m) == 1 else m for m in models)
    expected = _configured_models()
    assert table == expected, (f"README's provider table says {table}, config.py resolves {expected}; "
                               f"update the table from config.PROVIDERS")
    keys = [k for k in table if k.endswith("_API_KEY")]
    assert keys == [p.key_variable for p in config.PROVIDERS], (
        f"README lists the keys as {keys}; the order of precedence is config.PROVIDERS' order")


def test_env_example_names_only_the_configured_models():
    import config

    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    named = set(re.findall(r"\b((?:openai|groq|anthropic|gemini|ollama|ollama_chat|offline)/[\w.:/-]*\w)", text))
    configured = {model for pair in _configured_models().values() for model in pair}
    assert named - configured == set(), (f".env.example names {sorted(named - configured)}, which config.py "
                                         f"does not use as a default; use {sorted(configured)}")
    assert {p.chat_model for p in config.PROVIDERS} <= named, ".env.example should name every provider's chat model"


def test_module_counts_in_the_docs_match_code():
    """Better no count at all (code/ is being split into smaller modules); any count must be true."""
    actual = len(list(CODE.glob("*.py")))
    count = re.compile(rf"\b(\d+|{'|'.join(NUMBER_WORDS)})\s+(?:\w+\s+)?modules\b", re.I)
    problems = []
    for path in markdown_files():
        for sentence in re.split(r"(?<=\.)\s", normalised(path.read_text(encoding="utf-8"))):
            if "code/" not in sentence:
                continue
            for word in count.findall(sentence):
                stated = int(word) if word.isdigit() else NUMBER_WORDS[word.lower()]
                if stated != actual:
                    problems.append(f"{path.relative_to(ROOT)}: says {word} modules, code/ has {actual}: {sentence[:100]}")
    assert not problems, "\n".join(problems)


def test_project_module_table_names_modules_that_exist():
    text = PROJECT.read_text(encoding="utf-8")
    table = re.search(r"^\| module \|.*?(?=^\s*$)", text, re.S | re.M)
    assert table, "project.md § File Specification lost its module table"
    named = {m for row in table.group(0).splitlines()[2:] for m in re.findall(r"`(\w+\.py)`", row.split("|")[1])}
    missing = sorted(m for m in named if not (CODE / m).is_file())
    assert named and not missing, f"project.md's module table names modules that code/ lacks: {missing}"


def test_project_example_prompt_shows_what_build_prompt_builds():
    from chunker import Chunk
    from generator import build_prompt

    _, user = build_prompt("What was Q3 revenue?", [Chunk("c0", "Q3 revenue was 4.2M, up 8% YoY."),
                                                    Chunk("c1", "...")])
    example = re.search(r"^build_prompt\(.*?(?=^\s*$)", PROJECT.read_text(encoding="utf-8"), re.S | re.M)
    assert example, "project.md lost its build_prompt example I/O"
    for line in user["content"].splitlines():
        if line.startswith("<"):  # the delimiters, not the chunk text
            assert line in example.group(0), (f"project.md's build_prompt example omits {line!r}, which "
                                              f"generator.build_prompt puts in the user message")


def _starter_contents() -> set[str]:
    """Top-level names of the starter edition, read from tools/make_starter.py without running it."""
    tree = ast.parse((ROOT / "tools" / "make_starter.py").read_text(encoding="utf-8"))
    lists = {t.id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
             for t in node.targets if isinstance(t, ast.Name) and t.id in {"COPIED", "DOCUMENTS"}}
    assert set(lists) == {"COPIED", "DOCUMENTS"}, "tools/make_starter.py no longer defines COPIED and DOCUMENTS"
    return set(lists["COPIED"]) | set(lists["DOCUMENTS"]) | {"README.md", "pyproject.toml"}


@pytest.mark.parametrize("doc", [PROJECT, LESSON], ids=["project.md", "lesson.agent.md"])
def test_learner_docs_point_only_to_what_the_starter_has(doc):
    starter = _starter_contents()
    text = doc.read_text(encoding="utf-8")
    path = re.compile(r"(?<![\w./-])((?:\.ci|tools|tests|code|data|source|sources)/[\w./-]*"
                      r"|[A-Z][A-Z_]+\.md|pyproject\.toml|conftest\.py|\.env\.example)")
    problems = []
    for ref in sorted({m.rstrip(".,;:") for m in path.findall(text)}):
        top = ref.split("/")[0]
        if top not in starter:
            problems.append(f"{ref} (the starter has no {top})")
        elif "/" in ref and ref.split("/")[1] and not (ROOT / ref).exists():
            problems.append(f"{ref} (no such file)")
    assert not problems, (f"{doc.name} is read in the starter edition, which has {sorted(starter)}; "
                          f"it points to: {problems}")
    wording = re.findall(r"\b(?:the|this) reference\b(?! answers)|\breference's\b", text, re.I)
    assert not wording, f"{doc.name} speaks of {wording}: the learner has no reference; name the file they have"


def test_bm25s_note_states_the_installed_stopword_default():
    bm25s = pytest.importorskip("bm25s")
    default = inspect.signature(bm25s.tokenize).parameters["stopwords"].default
    note = doc_text("sources/official-docs/bm25s.md")
    assert f'stopwords="{default}"' in note, (
        f"sources/official-docs/bm25s.md should give bm25s.tokenize's stopwords default, which is {default!r} "
        f"in the installed bm25s")
    on = default not in (None, [], "")
    assert ("stopword removal is on by default" in note) == on, (
        f"sources/official-docs/bm25s.md: stopword removal is {'on' if on else 'off'} by default in the installed bm25s")
