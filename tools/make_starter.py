"""Write the learner edition (the starter) of the project to a folder.  [tool]

Every `# BEGIN SOLUTION M<n>` ... `# END SOLUTION` region inside a function in code/ becomes
one line, `raise NotImplementedError("M<n>: implement <function> in <file> (<what>) - see
source/lesson.agent.md §7")`; docstrings and comments outside the regions stay. The learner
documents (UNDERSTANDING.md, FAILURE_ANALYSIS.md, EVALUATION.md, STARCALLOS_REFLECTION.md)
become templates: their headings, questions and tables without the answers. Reference-only
parts (tools/ but fetch_devset.py, the project-level tests/, .ci/, .git) are not copied.

Run:  python tools/make_starter.py DEST [--force]    (then: cd DEST && pip install -e . && python -m pytest)
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import sys
from pathlib import Path

try:
    import tomllib  # Python 3.11+; on 3.10 the starter's pyproject is written unchecked
except ModuleNotFoundError:
    tomllib = None

REPO = Path(__file__).resolve().parent.parent
LESSON = "source/lesson.agent.md §7"

# Copied as they are (code/ is then stubbed); a missing one is reported, not fatal, because
# other parts of the project (e.g. source/) may still be in the making.
COPIED = ["code", "source", "sources", "data", ".env.example", ".gitignore", "conftest.py",
          "tools/fetch_devset.py"]  # the learner may measure on the development set too
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", ".rag_index")
DOCUMENTS = ["UNDERSTANDING.md", "FAILURE_ANALYSIS.md", "EVALUATION.md", "STARCALLOS_REFLECTION.md"]

# The <what> of each stub message; a function not listed here gets its docstring's first sentence.
WHAT = {
    "chunk_text": "overlapping, id-tagged windows of whitespace tokens",
    "build_prompt": "the grounded [system, user] prompt with chunk ids and a refusal rule",
    "answer": "call the model over build_prompt and parse the cited chunk ids",
    "faithfulness_score": "F = supported claims / all claims, 1.0 for no claims",
    "check_faithfulness": "split the answer into claims and verify each with a yes/no model call",
}

sys.path.insert(0, str(REPO / "code" / "tests"))
from milestones import MarkerError, learner_modules, regions  # noqa: E402 - the one reader of the markers


class StarterError(Exception):
    """A one-line problem with the reference or DEST; printed as `error: ...`, exit code 2."""


# ----------------------------------------------------------------------------- stubbing

def _what(source: str, function: str) -> str:
    if function in WHAT:
        return WHAT[function]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == function:
            doc = " ".join((ast.get_docstring(node) or "").split())
            return doc.split(". ")[0].rstrip(".") or "see its docstring"
    return "see its docstring"


def stub_message(milestone: str, function: str, path: str, what: str) -> str:
    return f"{milestone}: implement {function} in {path} ({what}) — see {LESSON}"


def stub_source(source: str, path: str) -> tuple[str, list[tuple[str, str, str]]]:
    """Replace each solution region of one module; return the new text and the
    (milestone, function, path) of every stub, in file order."""
    lines = source.splitlines(keepends=True)
    stubs = []
    for first, last, indent, milestone, function in reversed(regions(source, path)):
        message = stub_message(milestone, function, path, _what(source, function))
        if '"' in message or "\\" in message:
            raise StarterError(f"{path}: the stub message for {function} may not contain quotes or backslashes")
        lines[first:last + 1] = [f'{indent}raise NotImplementedError("{message}")\n']
        stubs.insert(0, (milestone, function, path))
    return "".join(lines), stubs


def stub_tree(code_dir: Path, root: Path) -> list[tuple[str, str, str]]:
    """Stub every module under code_dir in place; return all stubs, sorted by milestone."""
    stubs = []
    for module in learner_modules(code_dir):
        text = module.read_text(encoding="utf-8")
        path = module.relative_to(root).as_posix()
        new_text, found = stub_source(text, path)
        ast.parse(new_text, filename=path)  # a broken region layout must not ship as broken code
        module.write_text(new_text, encoding="utf-8")
        stubs.extend(found)
    return sorted(stubs, key=lambda s: int(s[0][1:]))


# ----------------------------------------------------------------------------- documents

_TABLE_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")
_QUESTION = re.compile(r"\?[*_`)\s]*$")
_ANSWER_HERE = "_Your answer._"


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def template_from(text: str, name: str, questions: list[str] | None = None) -> str:
    """Keep headings, questions, bold lead-ins (`**What it is here.**`), checklist items and
    table headers (with each body row's first cell, if short); drop everything else, i.e. the
    answers. `questions[n-1]` is shown under a heading numbered `n.`; without questions, a
    numbered heading's title is itself an answer (a pattern's name) and is blanked."""
    out: list[str] = []
    in_code = in_table = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        if stripped.startswith("|"):
            if not in_table:  # the header row
                out += ["", stripped]
                in_table = True
            elif _TABLE_SEPARATOR.match(stripped):
                out.append(stripped)
            else:
                cells = _cells(stripped)
                label = cells[0] if len(cells[0]) <= 40 else ""
                out.append("| " + " | ".join([label] + [""] * (len(cells) - 1)) + " |")
            continue
        if in_table:
            out.append("")
        in_table = False
        numbered = re.match(r"^(#{2,})\s+(\d+)\.\s", stripped)
        lead_in = re.match(r"^(\*\*[^*]+\*\*)", stripped)
        if re.match(r"^#\s", stripped):  # the title: the reference's says "reference answers"
            out += [f"# {Path(name).stem}", "",
                    "Template: the answers are yours to write (source/lesson.agent.md §5, §6).", ""]
        elif numbered and questions and int(numbered.group(2)) <= len(questions):
            out += ["", stripped, "", f"> {questions[int(numbered.group(2)) - 1]}", ""]
        elif numbered:
            out += ["", f"{numbered.group(1)} {numbered.group(2)}. (name it)", ""]
        elif stripped.startswith("#"):
            out += ["", stripped, ""]
        elif re.match(r"^[-*]\s+\[[ xX]\]", stripped):
            out.append(re.sub(r"\[[xX]\]", "[ ]", stripped, count=1))
        elif _QUESTION.search(stripped):
            out += [stripped, "", _ANSWER_HERE, ""]
        elif lead_in:
            out += [lead_in.group(1), "", _ANSWER_HERE, ""]
    # A section with nothing left to answer under its heading gets a place to write.
    filled: list[str] = []
    for line in out + ["#"]:
        if line.startswith("#") and any(s.strip() for s in filled) and _ends_bare(filled):
            filled += ["", _ANSWER_HERE, ""]
        filled.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(filled[:-1]).strip()) + "\n"


def _ends_bare(lines: list[str]) -> bool:
    """Is the last non-empty line a heading or a question prompt with nothing under it?"""
    last = next((s for s in reversed(lines) if s.strip()), "")
    return last.startswith("#") and not last.startswith("# ") or last.startswith("> ")


def _lesson_questions() -> list[str]:
    """The numbered questions of the lesson's §5 ("Questions for UNDERSTANDING.md"), if any."""
    lesson = REPO / "source" / "lesson.agent.md"
    if not lesson.is_file():
        return []
    section = re.search(r"^## §5[^\n]*\n(.*?)(?=^## )", lesson.read_text(encoding="utf-8"), re.S | re.M)
    if not section:
        return []
    items = re.split(r"^\d+\.\s+", section.group(1), flags=re.M)[1:]
    return [" ".join(item.split()) for item in items]


def default_template(name: str) -> str:
    """A template for a learner document that does not exist on main yet."""
    if name == "UNDERSTANDING.md":
        questions = _lesson_questions() or [
            "What is retrieval-augmented generation, and which failures of a plain chat model does it address?",
            "What do chunk size and overlap trade off? What is the step between windows?",
            "Why must chunks and questions be embedded with the same model?",
            "What must a grounded prompt contain, and how do you test that it grounds?",
            "What is faithfulness F = |V|/|S|, and what does F = 1.0 not guarantee?",
        ]
        body = "\n\n".join(f"## {n}. {q}\n\n{_ANSWER_HERE}" for n, q in enumerate(questions, 1))
        return ("# Understanding\n\nAnswer before writing code (source/lesson.agent.md §5). "
                "Short, precise answers beat long ones.\n\n" + body + "\n")
    if name == "FAILURE_ANALYSIS.md":
        prompts = ["**Hypothesis.** What do you expect, and why?", "**Command.** The exact command you ran.",
                   "**Measured result.** Numbers and output, not impressions.",
                   "**Which stage failed (chunking, retrieval, grounding, generation, verification), "
                   "and how do you know?**", "**Fix or lesson.**"]
        experiment = "".join(f"{p}\n\n{_ANSWER_HERE}\n\n" for p in prompts)
        rows = ["off-document question, with and without the refusal rule",
                "a false claim injected into a grounded answer (F before and after)",
                "chunk-size sweep"]
        table = "\n".join(f"| {n} | {r} | | | | |" for n, r in enumerate(rows, 1))
        return ("# Failure analysis\n\nAt least three intentional experiments "
                "(source/lesson.agent.md §6).\n\n"
                "| # | experiment | hypothesis | command | measured result | failing stage |\n"
                "| --- | --- | --- | --- | --- | --- |\n" + table + "\n\n"
                + "\n".join(f"## Experiment {n}: {r}\n\n{experiment}" for n, r in enumerate(rows, 1)))
    if name == "EVALUATION.md":
        return ("# Evaluation\n\nMeasured results, each with the command that produced it "
                "(source/lesson.agent.md §6). Numbers, not impressions.\n\n"
                "## Setup\n\nWhich documents, questions, models and settings?\n\n"
                "## Retrieval\n\n| question | expected chunk / page | rank found (or miss) |\n"
                "| --- | --- | --- |\n| | | |\n\nHit rate at k: ___  MRR: ___  Command: ___\n\n"
                "## Refusals\n\n| off-document question | refused? |\n| --- | --- |\n| | |\n\n"
                "Refusal accuracy: ___  Command: ___\n\n"
                "## Faithfulness\n\n| question | answer | F | unsupported claims |\n"
                "| --- | --- | --- | --- |\n| | | | |\n\nMean F: ___  Command: ___\n\n"
                "## What do the numbers say? Where would you improve first?\n\n" + _ANSWER_HERE + "\n")
    return ("# StarcallOS reflection\n\nAt least one concrete pattern from this project that "
            "StarcallOS should adopt (source/lesson.agent.md §6).\n\n"
            "## Which pattern?\n\n" + _ANSWER_HERE + "\n\n"
            "## What is its mechanism, and which failure does it prevent?\n\n" + _ANSWER_HERE + "\n\n"
            "## Where in StarcallOS would it go, and how would you build it there?\n\n" + _ANSWER_HERE + "\n\n"
            "## How would you measure that it works?\n\n" + _ANSWER_HERE + "\n\n"
            "## What does not transfer, and why?\n\n" + _ANSWER_HERE + "\n")


# ----------------------------------------------------------------------------- README, pyproject

def _section(markdown: str, title: str) -> str:
    """The body of the `## title` section of a Markdown text ('' if absent)."""
    match = re.search(rf"^## {re.escape(title)}\s*\n(.*?)(?=^## |\Z)", markdown, re.S | re.M)
    return match.group(1).strip() if match else ""


def learner_readme(stubs: list[tuple[str, str, str]]) -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    # "For learners" opens with the reference and how to create the starter: already done here,
    # so the learner README starts at the workflow.
    for_learners = _section(readme, "For learners")
    for_learners = for_learners[for_learners.find("### The milestone workflow"):] \
        if "### The milestone workflow" in for_learners else for_learners
    todo = "\n".join(f"- {m}: `{f}` in `{p}`" for m, f, p in stubs)
    parts = [
        "# PDF Research Assistant (starter)\n",
        "You build a RAG over PDFs that answers with citations and checks its own faithfulness, by "
        "writing the learner functions below until `python -m pytest` passes. Everything else is "
        "provided and runs offline, with no API key.\n",
        "## Setup\n\n```bash\npip install -e .\npython -m pytest --milestones   # where you are, and the next step\n```\n",
        f"## What you write\n\n{todo}\n\nEach one raises `NotImplementedError` until you replace "
        f"that line with your code; the lesson is `{LESSON}`.\n",
    ]
    if for_learners:
        parts.append(f"## Milestones\n\n{for_learners}\n")
    for title in ("Run each step alone", "Use a real model", "Troubleshooting"):
        body = _section(readme, title)
        if body:
            parts.append(f"## {title}\n\n{body}\n")
    parts.append("## Your documents\n\n" + ", ".join(f"`{d}`" for d in DOCUMENTS)
                 + " are templates: answer the questions and fill in the tables "
                 "(source/lesson.agent.md §5 and §6).\n")
    return "\n".join(parts)


def learner_pyproject(stubs: list[tuple[str, str, str]]) -> str:
    """The reference pyproject with testpaths limited to code/tests (tests/ is not shipped) and
    the learner functions listed for the milestone report in conftest.py."""
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    text, n = re.subn(r"^testpaths\s*=.*$", 'testpaths = ["code/tests"]', text, count=1, flags=re.M)
    listed = "".join(f'    "{m} {f} {p}",\n' for m, f, p in stubs)
    text, k = re.subn(r"^(\[tool\.pytest\.ini_options\]\n)",
                      lambda m: m.group(1) + f"learner_functions = [\n{listed}]\n", text, count=1, flags=re.M)
    if not (n and k):
        raise StarterError("pyproject.toml: no [tool.pytest.ini_options] with testpaths to adapt")
    if tomllib is not None:
        tomllib.loads(text)  # never ship a pyproject that does not parse
    return text


# ----------------------------------------------------------------------------- main

def _check_dest(dest: Path, force: bool) -> None:
    resolved = dest.resolve()
    if resolved == REPO or resolved in REPO.parents:
        raise StarterError(f"{dest} is the reference repository or contains it; pick another folder")
    if dest.exists() and not dest.is_dir():
        raise StarterError(f"{dest} is a file; pick a folder")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise StarterError(f"{dest} is not empty; pick an empty folder or pass --force to overwrite "
                           f"the starter's files in it")


def make_starter(dest: Path, force: bool = False) -> list[tuple[str, str, str]]:
    _check_dest(dest, force)
    dest.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        source, target = REPO / name, dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir():
            shutil.rmtree(target)
        if source.is_dir():
            shutil.copytree(source, target, ignore=IGNORED)
        elif source.is_file():
            shutil.copy2(source, target)
        else:
            print(f"note: {name} does not exist yet in {REPO}; the starter has none", file=sys.stderr)
    stubs = stub_tree(dest / "code", dest)
    if not stubs:
        raise StarterError("no '# BEGIN SOLUTION M<n>' regions found in code/; nothing to turn into stubs")
    (dest / "pyproject.toml").write_text(learner_pyproject(stubs), encoding="utf-8")
    (dest / "README.md").write_text(learner_readme(stubs), encoding="utf-8")
    for name in DOCUMENTS:
        reference = REPO / name
        questions = _lesson_questions() if name == "UNDERSTANDING.md" else None
        text = (template_from(reference.read_text(encoding="utf-8"), name, questions)
                if reference.is_file() else default_template(name))
        (dest / name).write_text(text, encoding="utf-8")
    return stubs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the learner edition of the project to DEST.")
    parser.add_argument("dest", type=Path, help="an empty (or new) folder")
    parser.add_argument("--force", action="store_true", help="overwrite the starter's files in a non-empty DEST")
    args = parser.parse_args(argv)
    try:
        stubs = make_starter(args.dest, args.force)
    except (StarterError, MarkerError, OSError, SyntaxError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote the starter to {args.dest}: {len(stubs)} stubs "
          f"({', '.join(f'{m} {f}' for m, f, _ in stubs)})")
    print(f"next: cd {args.dest} && pip install -e . && python -m pytest --milestones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
