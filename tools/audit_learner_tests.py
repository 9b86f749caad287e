"""Audit the guiding tests with alternative learner implementations.  [tool]

The guiding tests (code/tests) are the learner's only feedback, so they must fail for wrong work
and pass for right work. This tool measures both. Each file in tools/learner_variants/ is one
alternative implementation of one learner function (or of a pair): either a realistic MISTAKE
(which the tests should catch) or a CORRECT alternative that the contract allows (which the tests
should accept). For every variant the tool

1. takes the learner edition (`python tools/make_starter.py DIR`, built once per worker),
2. fills every stub with the reference solution (the `# BEGIN SOLUTION` region of the same
   function in the reference code/),
3. replaces the variant's function(s) by the variant's source,
4. runs the starter's guiding tests (`python -m pytest -q -x code/tests`, all milestones, the
   variant's own milestone first so a catch is found early),

and records: a mistake is `caught` (some test failed) or `missed`; a correct variant is
`accepted` (everything passed) or `rejected` (with the failing test and its message). Failure
messages that explain nothing (a bare `assert` comparison, `assert False`, `substring not found`)
are flagged. A control run of the unmodified reference comes first; tests that already fail there
are deselected from the variant runs (and reported), so a broken test cannot count as a catch.

Run:  python tools/audit_learner_tests.py                 # every variant, 2 workers (~25 min)
      python tools/audit_learner_tests.py --only bad_chunk_redundant_tail --only 'ok_prompt_*'
      python tools/audit_learner_tests.py --json audit.json --jobs 2
      python tools/audit_learner_tests.py --ref HEAD       # a committed snapshot, not the working tree
      python tools/audit_learner_tests.py --list           # check and list the variants only
      python tools/audit_learner_tests.py --render audit.json   # print an earlier run's report again

Use the project's environment (`source /work/venv/bin/activate` or any venv with the project
installed): the tests run with the same interpreter. Results are deterministic: PYTHONHASHSEED=0
and, when hypothesis is installed, --hypothesis-seed=0.

It relies only on the learner function names, the `# BEGIN SOLUTION` / `# END SOLUTION` markers,
the stubs that make_starter.py writes, and the test folder code/tests of the starter.

Variant file format (tools/learner_variants/<name>.py):

    # replaces: build_prompt, answer          (one or more learner functions)
    # kind: mistake                            (or: correct)
    # description: one line
    # violates: "quoted clause" (where)        (mistakes only)
    # note: optional, free text
    <optional imports / helpers at top level>
    def build_prompt(...): ...

A header line starting with `#` followed by spaces continues the previous field. Top-level code
other than the replaced functions (imports, helper functions, constants) is inserted into the
module just before the first replaced function. A variant may use only what its module already
imports or defines, or import it itself; a name that is missing makes the variant `broken`
(checked before any test runs). When the starter's signature gains parameters with defaults
(e.g. `cfg=None`) that a variant does not have, the variant still runs behind a wrapper with the
starter's signature, and the report lists it under VARIANTS OUT OF DATE.

Results: mistakes `caught` / `missed`, correct variants `accepted` / `rejected`; `broken` (the
variant does not fit the code) and `error` (the harness failed) are not counted. A catch made
only by a later milestone's test (e.g. a chunker bug that only an M2 test notices) is marked
`late`.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import fnmatch
import importlib.util
import json
import os
import platform
import queue
import re
import shutil
import signal
import subprocess
import sys
import symtable
import tempfile
import textwrap
import threading
import time
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
VARIANT_DIR = Path(__file__).resolve().parent / "learner_variants"

BEGIN = re.compile(r"^(\s*)# BEGIN SOLUTION\b\s*(.*?)\s*$")
END = re.compile(r"^\s*# END SOLUTION\b")
DEF = re.compile(r"^(\s*)(?:async\s+)?def\s+(\w+)")
# The stub make_starter writes: raise NotImplementedError("M1: implement chunk_text in code/chunker.py (...
STUB = re.compile(r"""^(\s*)raise\s+NotImplementedError\(\s*["'](M\d+): implement (\w+) in (\S+)""")
HEADER = re.compile(r"^#\s*(replaces|kind|description|violates|note)\s*:\s*(.*?)\s*$", re.I)
KINDS = ("mistake", "correct")


# With hypothesis installed its property tests draw the same examples in every run, so a result
# does not depend on luck.
HYPOTHESIS = importlib.util.find_spec("hypothesis") is not None


class AuditError(Exception):
    """A problem with the setup (starter, reference, variants); printed as `error: ...`."""


# ----------------------------------------------------------------------------- variants

@dataclass
class Variant:
    name: str
    path: str
    replaces: list[str]
    kind: str
    description: str
    violates: str = ""
    note: str = ""
    functions: dict[str, str] = field(default_factory=dict)  # name -> source (dedented)
    support: str = ""  # other top-level code (imports, helpers)
    problems: list[str] = field(default_factory=list)


def _header(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    last = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        match = HEADER.match(stripped)
        if match:
            last = match.group(1).lower()
            fields[last] = match.group(2)
        elif last and re.match(r"^#\s{2,}\S", stripped):  # continuation line
            fields[last] += " " + stripped.lstrip("#").strip()
        else:
            last = None
    return fields


def _segment(lines: list[str], node: ast.stmt) -> str:
    start = min([d.lineno for d in getattr(node, "decorator_list", [])] + [node.lineno])
    return textwrap.dedent("".join(lines[start - 1:node.end_lineno]))


def load_variant(path: Path) -> Variant:
    text = path.read_text(encoding="utf-8")
    head = _header(text)
    replaces = [f.strip() for f in re.split(r"[,\s]+", head.get("replaces", "")) if f.strip()]
    variant = Variant(name=path.stem, path=str(path.relative_to(REPO) if path.is_relative_to(REPO) else path),
                      replaces=replaces, kind=head.get("kind", "").lower(),
                      description=head.get("description", ""), violates=head.get("violates", ""),
                      note=head.get("note", ""))
    if not replaces:
        variant.problems.append("header has no '# replaces:' line")
    if variant.kind not in KINDS:
        variant.problems.append(f"'# kind:' must be one of {', '.join(KINDS)} (got {variant.kind!r})")
    if not variant.description:
        variant.problems.append("header has no '# description:' line")
    if variant.kind == "mistake" and not variant.violates:
        variant.problems.append("a mistake needs a '# violates:' line quoting the spec clause")
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as exc:
        variant.problems.append(f"does not parse: {exc}")
        return variant
    lines = text.splitlines(keepends=True)
    support = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in replaces:
            variant.functions[node.name] = _segment(lines, node)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node is tree.body[0]:
            continue  # a module docstring
        elif isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        else:
            support.append(_segment(lines, node))
    variant.support = "\n".join(support)
    missing = [f for f in replaces if f not in variant.functions]
    if missing:
        variant.problems.append(f"defines no top-level {', '.join(missing)}")
    return variant


def load_variants(only: list[str]) -> list[Variant]:
    if not VARIANT_DIR.is_dir():
        raise AuditError(f"{VARIANT_DIR} does not exist")
    paths = sorted(p for p in VARIANT_DIR.glob("*.py") if not p.name.startswith("_"))
    variants = [load_variant(p) for p in paths]
    if only:
        patterns = [p.strip() for o in only for p in o.split(",") if p.strip()]
        variants = [v for v in variants if any(fnmatch.fnmatch(v.name, p) or v.name == p.removesuffix(".py")
                                               for p in patterns)]
        if not variants:
            raise AuditError(f"no variant matches {', '.join(patterns)} (see --list)")
    return variants


# ----------------------------------------------------------------------------- the starter

# The reference being audited: the working tree, or a snapshot of a commit (--ref).
SOURCE = REPO


def export_snapshot(rev: str, dest: Path) -> Path:
    """`git archive REV` unpacked into dest: a stable reference while others edit the tree."""
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev], capture_output=True,
                             timeout=300)
    if archive.returncode != 0:
        raise AuditError(f"git archive {rev} failed: {archive.stderr.decode(errors='replace').strip()[:300]}")
    unpack = subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, capture_output=True, timeout=300)
    if unpack.returncode != 0:
        raise AuditError(f"cannot unpack the snapshot of {rev}: {unpack.stderr.decode(errors='replace')[:300]}")
    return dest


def make_starter(dest: Path) -> None:
    tool = SOURCE / "tools" / "make_starter.py"
    if not tool.is_file():
        raise AuditError(f"{tool} does not exist")
    out = subprocess.run([sys.executable, str(tool), str(dest)], capture_output=True, text=True,
                         timeout=300)
    if out.returncode != 0:
        raise AuditError(f"make_starter.py failed: {(out.stderr or out.stdout).strip()[:400]}")


@dataclass
class LearnerFunction:
    name: str
    milestone: str
    module: str  # path relative to the starter, e.g. code/generator.py


def find_stubs(starter: Path) -> dict[str, LearnerFunction]:
    found: dict[str, LearnerFunction] = {}
    for module in sorted((starter / "code").rglob("*.py")):
        if "tests" in module.relative_to(starter / "code").parts:
            continue
        for line in module.read_text(encoding="utf-8").splitlines():
            match = STUB.match(line)
            if match:
                found[match.group(3)] = LearnerFunction(match.group(3), match.group(2),
                                                        module.relative_to(starter).as_posix())
    if not found:
        raise AuditError(f"no learner stubs in {starter}/code: did make_starter.py change its stub format?")
    return found


def reference_regions(text: str) -> dict[str, list[list[str]]]:
    """function name -> the bodies of its solution regions, in file order."""
    lines = text.splitlines(keepends=True)
    regions: dict[str, list[list[str]]] = {}
    i = 0
    while i < len(lines):
        begin = BEGIN.match(lines[i])
        if not begin:
            i += 1
            continue
        indent = begin.group(1)
        enclosing = next((DEF.match(line) for line in reversed(lines[:i])
                          if DEF.match(line) and len(DEF.match(line).group(1)) < len(indent)), None)
        end = next((j for j in range(i + 1, len(lines)) if END.match(lines[j])), None)
        if enclosing is None or end is None:
            raise AuditError(f"a solution region at line {i + 1} has no enclosing function or no END marker")
        regions.setdefault(enclosing.group(2), []).append(lines[i + 1:end])
        i = end + 1
    return regions


def filled_modules(starter: Path, functions: dict[str, LearnerFunction]) -> dict[str, str]:
    """The learner modules of the starter with every stub replaced by the reference solution."""
    out: dict[str, str] = {}
    for module in sorted({f.module for f in functions.values()}):
        reference = SOURCE / module
        if not reference.is_file():
            raise AuditError(f"the starter has {module} but the reference does not")
        regions = reference_regions(reference.read_text(encoding="utf-8"))
        used: dict[str, int] = {}
        new: list[str] = []
        for line in (starter / module).read_text(encoding="utf-8").splitlines(keepends=True):
            match = STUB.match(line)
            if not match:
                new.append(line)
                continue
            name = match.group(3)
            k = used.get(name, 0)
            used[name] = k + 1
            bodies = regions.get(name, [])
            if k >= len(bodies):
                raise AuditError(f"{module}: no reference solution region for {name}")
            body = textwrap.indent(textwrap.dedent("".join(bodies[k])), match.group(1))
            new.append(body if body.endswith("\n") else body + "\n")
        text = "".join(new)
        ast.parse(text, filename=module)
        out[module] = text
    return out


# ----------------------------------------------------------------------------- splicing

def _module_bindings(text: str) -> set[str] | None:
    """Names bound at module level, or None when a star import makes that unknowable."""
    tree = ast.parse(text)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return None
    top = symtable.symtable(text, "<module>", "exec")
    for sym in top.get_symbols():
        if sym.is_assigned() or sym.is_imported() or sym.is_namespace():
            names.add(sym.get_name())
    return names


def _free_globals(table: symtable.SymbolTable) -> set[str]:
    names = {s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced()}
    for child in table.get_children():
        names |= _free_globals(child)
    return names


def unknown_names(text: str, functions: list[str]) -> list[str]:
    """Global names the given functions use that neither the module nor builtins define."""
    bound = _module_bindings(text)
    if bound is None:
        return []
    top = symtable.symtable(text, "<module>", "exec")
    missing: set[str] = set()

    def visit(table: symtable.SymbolTable) -> None:
        for child in table.get_children():
            if child.get_type() == "function" and child.get_name() in functions:
                missing.update(n for n in _free_globals(child) if n not in bound and not hasattr(builtins, n))
            else:
                visit(child)

    visit(top)
    return sorted(missing)


def splice(text: str, variant: Variant, names: list[str]) -> str:
    """Replace the functions `names` of one module by the variant's, and insert its support code."""
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    spans = []
    for name in names:
        node = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and n.name == name), None)
        if node is None:
            raise AuditError(f"{name} is not a top-level function of its module any more")
        start = min([d.lineno for d in node.decorator_list] + [node.lineno])
        spans.append((start, node.end_lineno, name))
    spans.sort()
    for start, end, name in reversed(spans):
        source = variant.functions[name].rstrip("\n") + "\n"
        lines[start - 1:end] = [source]
    if variant.support.strip():
        first = spans[0][0]
        lines.insert(first - 1, "# --- support code of the variant ---\n" + variant.support.rstrip("\n") + "\n\n\n")
    return "".join(lines)


def _params(node: ast.FunctionDef) -> tuple[list[str], set[str]]:
    """(all parameter names in order, the names that have a default)."""
    a = node.args
    positional = [x.arg for x in a.posonlyargs + a.args]
    defaulted = set(positional[len(positional) - len(a.defaults):]) if a.defaults else set()
    defaulted |= {x.arg for x, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None}
    return positional + [x.arg for x in a.kwonlyargs], defaulted


def adapt_signature(variant: Variant, name: str, starter_text: str) -> tuple[str, list[str]]:
    """The variant's source of `name`, made callable with the starter's signature.

    When the starter's function has gained parameters with defaults that the variant does not
    know (e.g. `cfg=None`), the variant runs under its own name behind a wrapper with the
    starter's exact def line, so it is still tested (it simply ignores the new parameters).
    Returns (source, the ignored parameters); raises AuditError when the two cannot be matched."""
    source = variant.functions[name]
    mine = next(n for n in ast.parse(source).body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    tree = ast.parse(starter_text)
    theirs = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                   and n.name == name), None)
    if theirs is None:
        return source, []
    my_params, my_defaults = _params(mine)
    their_params, their_defaults = _params(theirs)
    if my_params == their_params:
        return source, []
    if my_params[:len(their_params)] == their_params and set(my_params[len(their_params):]) <= my_defaults:
        return source, []  # written for a newer signature: the starter's callers never pass the rest
    extra = [p for p in their_params if p not in my_params]
    if any(p not in their_params for p in my_params) or any(p not in their_defaults for p in extra):
        raise AuditError(f"{name}{tuple(my_params)} does not fit the starter's signature "
                         f"{name}{tuple(their_params)}: update the variant")
    lines = starter_text.splitlines(keepends=True)
    first_body = theirs.body[0]
    header = textwrap.dedent("".join(lines[theirs.lineno - 1:first_body.lineno - 1])).rstrip() + "\n"
    inner = f"_audit_variant_{name}"
    renamed = re.sub(rf"^(\s*(?:async\s+)?def\s+){name}\b", rf"\g<1>{inner}", source, count=1, flags=re.M)
    call = ", ".join(f"{p}={p}" for p in my_params)
    wrapper = f"{header}    return {inner}({call})\n"
    return renamed.rstrip("\n") + "\n\n\n" + wrapper, extra


def build_variant_modules(variant: Variant, functions: dict[str, LearnerFunction],
                          baseline: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """The modules with the variant spliced in, and warnings (parameters the variant ignores)."""
    unknown = [f for f in variant.replaces if f not in functions]
    if unknown:
        raise AuditError(f"replaces {', '.join(unknown)}, not a learner function "
                         f"(learner functions: {', '.join(sorted(functions))})")
    by_module: dict[str, list[str]] = {}
    for name in variant.replaces:
        by_module.setdefault(functions[name].module, []).append(name)
    out, warnings = {}, []
    for module, names in by_module.items():
        adapted = Variant(**{**asdict(variant), "functions": dict(variant.functions)})
        for name in names:
            adapted.functions[name], ignored = adapt_signature(variant, name, baseline[module])
            if ignored:
                warnings.append(f"{name}: the starter's signature adds {', '.join(ignored)}, which the "
                                f"variant ignores (ran behind a wrapper; update the variant)")
        text = splice(baseline[module], adapted, names)
        try:
            ast.parse(text, filename=module)
        except SyntaxError as exc:
            raise AuditError(f"the spliced {module} does not parse: {exc}") from None
        missing = unknown_names(text, names + [f"_audit_variant_{n}" for n in names])
        if missing:
            raise AuditError(f"uses {', '.join(missing)}, which {module} does not define or import")
        out[module] = text
    return out, warnings


# ----------------------------------------------------------------------------- running

@dataclass
class Failure:
    test: str
    message: str  # the first lines
    raised_in: str = ""  # file:line where the exception was raised
    quality: str = ""  # '' (fine), 'no explanation' (bare assert showing values) or 'unhelpful'
    why: str = ""  # what is wrong with the message


@dataclass
class Outcome:
    name: str
    kind: str
    replaces: list[str]
    description: str
    violates: str
    note: str
    result: str  # caught / missed / accepted / rejected / broken / error
    seconds: float = 0.0
    failure: Failure | None = None
    passed: int = 0
    detail: str = ""
    deselected: list[str] = field(default_factory=list)
    milestones: list[str] = field(default_factory=list)  # of the replaced functions, e.g. ['m4']
    failed_in: str = ""  # milestone of the first failing test file (from its name), e.g. 'm6'
    warnings: list[str] = field(default_factory=list)


def _first_lines(text: str, n: int = 4, width: int = 240) -> str:
    lines = [ln.rstrip() for ln in text.strip().splitlines() if ln.strip()]
    return "\n".join(ln[:width] for ln in lines[:n])


def judge_message(message: str, raised_in: str) -> tuple[str, str]:
    """How much a failure message tells the learner: ('', '') when it explains itself or comes
    from the code under test; ('unhelpful', why) when it says nothing about what is wrong (bare
    `assert False`, `substring not found`, a comparison of bare numbers or booleans);
    ('no explanation', why) for a bare assert that shows the values but not the rule they break."""
    first = message.strip().splitlines()[0] if message.strip() else ""
    name = raised_in.split(":")[0]
    in_test = "/tests/" in "/" + name or Path(name).name.startswith("test_")
    if not first:
        return "unhelpful", "empty failure message"
    if "substring not found" in message:
        return "unhelpful", "'substring not found' from str.index in the test: names neither the text nor what was expected"
    body = re.sub(r"^(AssertionError:\s*)?assert\s+", "", first) if re.match(r"^(AssertionError:\s*)?assert\b", first) else None
    if body is not None and re.fullmatch(r"\(?\s*(False|0|None)\s*\)?", body.strip()):
        return "unhelpful", "bare 'assert False': no explanation at all"
    if not in_test:
        return "", ""  # an exception from the learner's or the provided code carries its own message
    if first.strip() == "AssertionError":
        return "unhelpful", "AssertionError without a message"
    if body is not None:
        values = re.sub(r"\b(True|False|None)\b|[-+]?\d+(\.\d+)?(e[-+]?\d+)?", "", body)
        if not re.search(r"[A-Za-z]", values):
            return "unhelpful", "compares bare numbers/booleans: the learner cannot tell which rule failed"
        return "no explanation", "bare assert: shows the values but not the rule they break"
    return "", ""


# "FAILED code/tests/test_x.py::test_y[a b] - AssertionError: ...": a node id may hold spaces.
_SUMMARY = re.compile(r"^(FAILED|ERROR) (.+?)(?: - (.*))?$")
_WHERE = re.compile(r"^(\S+\.py):(\d+):")


def parse_junit(path: Path) -> tuple[int, list[tuple[str, str, str]]]:
    """(passed count, [(junit test name, message, traceback text)] for failures and errors)."""
    if not path.is_file():
        return 0, []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return 0, []
    passed, failures = 0, []
    for case in root.iter("testcase"):
        bad = next((c for c in case if c.tag in ("failure", "error")), None)
        if bad is None:
            if not any(c.tag == "skipped" for c in case):
                passed += 1
            continue
        failures.append((f"{case.get('classname', '')}::{case.get('name', '')}",
                         bad.get("message", "") or "", bad.text or ""))
    return passed, failures


def _where(traceback: str) -> str:
    hits = [m.group(1) + ":" + m.group(2) for m in (_WHERE.match(ln.strip()) for ln in traceback.splitlines()) if m]
    return hits[-1] if hits else ""


class Worker:
    """One starter copy, reused for every variant this worker runs."""

    def __init__(self, root: Path, index: int, baseline: dict[str, str], timeout: float):
        self.dir = root / f"worker{index}"
        self.baseline = baseline
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        make_starter(self.dir)

    def stop(self) -> None:
        """Kill the test run in progress (its whole process group, which this worker started)."""
        proc = self.proc
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _reset(self, modules: dict[str, str]) -> None:
        for rel, text in {**self.baseline, **modules}.items():
            (self.dir / rel).write_text(text, encoding="utf-8")
        for junk in list(self.dir.rglob("__pycache__")) + [self.dir / ".hypothesis", self.dir / ".rag_index"]:
            shutil.rmtree(junk, ignore_errors=True)

    def test_files(self, milestones: set[str]) -> list[str]:
        files = sorted(p.relative_to(self.dir).as_posix() for p in (self.dir / "code" / "tests").rglob("test_*.py"))
        first = [f for f in files if any(re.search(rf"(^|_){m.lower()}(_|\.py$)", Path(f).name) for m in milestones)]
        return first + [f for f in files if f not in first]

    def pytest(self, modules: dict[str, str], milestones: set[str], stop_first: bool,
               deselect: list[str], ignore: list[str] = ()) -> dict:
        self._reset(modules)
        junit = self.dir / ".audit_junit.xml"
        junit.unlink(missing_ok=True)
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=short", "-rfE",
               "--color=no", f"--junitxml={junit}", f"--basetemp={self.dir / '.audit_tmp'}"]
        if stop_first:
            cmd.append("-x")
        if HYPOTHESIS:
            cmd.append("--hypothesis-seed=0")  # the same random examples for every variant
        for nodeid in deselect:
            cmd += ["--deselect", nodeid]
        cmd += [f for f in self.test_files(milestones) if f not in ignore]
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
        started = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=self.dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, start_new_session=True)
        self.proc = proc
        try:
            output, _ = proc.communicate(timeout=self.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)  # the pytest process group this worker started
            output, _ = proc.communicate()
            timed_out = True
        finally:
            self.proc = None
        passed, failures = parse_junit(junit)
        summary = [m.groups() for m in map(_SUMMARY.match, output.splitlines()) if m]
        return {"rc": proc.returncode, "timed_out": timed_out, "seconds": time.monotonic() - started,
                "output": output, "passed": passed, "failures": failures, "summary": summary}


def _failure_from(run: dict) -> Failure | None:
    if run["timed_out"]:
        return Failure("(timeout)", "the test run did not finish (an endless loop?)")
    if not run["failures"] and not run["summary"]:
        if run["rc"] not in (0, None):
            return Failure("(pytest)", _first_lines(run["output"][-2000:], 6))
        return None
    nodeid = run["summary"][0][1] if run["summary"] else ""
    if run["failures"]:
        name, message, traceback = run["failures"][0]
        where = _where(traceback)
        message = message or traceback
        test = nodeid or name
    else:
        where, message, test = "", run["summary"][0][2] or "", nodeid
    first = _first_lines(message)
    return Failure(test, first, where, *judge_message(first, where))


_BROKEN = re.compile(r"\b(NameError|ImportError|ModuleNotFoundError|SyntaxError|IndentationError)\b")


def run_variant(worker: Worker, variant: Variant, functions: dict[str, LearnerFunction],
                deselect: list[str], ignore: list[str] = ()) -> Outcome:
    outcome = Outcome(variant.name, variant.kind, variant.replaces, variant.description, variant.violates,
                      variant.note, "error")
    if variant.problems:
        outcome.result, outcome.detail = "broken", "; ".join(variant.problems)
        return outcome
    try:
        modules, outcome.warnings = build_variant_modules(variant, functions, worker.baseline)
    except AuditError as exc:
        outcome.result, outcome.detail = "broken", str(exc)
        return outcome
    milestones = {functions[f].milestone for f in variant.replaces}
    outcome.milestones = sorted(m.lower() for m in milestones)
    run = worker.pytest(modules, milestones, stop_first=True, deselect=deselect, ignore=ignore)
    outcome.seconds = round(run["seconds"], 1)
    outcome.passed = run["passed"]
    failure = _failure_from(run)
    outcome.failure = failure
    if failure and (m := re.search(r"(?:^|[/_.])(m\d+)_", failure.test.split("::")[0].split("/")[-1])):
        outcome.failed_in = m.group(1)
    if run["timed_out"]:
        outcome.result = "caught" if variant.kind == "mistake" else "rejected"
        outcome.detail = "timeout"
    elif failure is None and run["rc"] == 0:
        outcome.result = "missed" if variant.kind == "mistake" else "accepted"
    elif run["rc"] == 1 or (failure and failure.test not in ("(pytest)",)):
        if failure and _BROKEN.search(failure.message) and any(
                m in failure.raised_in for m in {functions[f].module for f in variant.replaces}):
            outcome.result = "broken"
            outcome.detail = "the variant itself fails to run: " + failure.message.splitlines()[0]
        else:
            outcome.result = "caught" if variant.kind == "mistake" else "rejected"
    else:
        outcome.result = "error"
        outcome.detail = f"pytest exit code {run['rc']}"
    return outcome


# ----------------------------------------------------------------------------- report

def _short_test(test: str) -> str:
    return test.replace("code/tests/", "").replace("code.tests.", "")


def render(outcomes: list[Outcome], control: dict, seconds: float) -> str:
    out = []
    width = max([len(o.name) for o in outcomes] + [7])
    out.append(f"{'variant':<{width}}  {'kind':<7}  {'result':<9}  {'secs':>5}  first failing test / message")
    out.append("-" * (width + 100))
    for o in sorted(outcomes, key=lambda o: (o.kind, o.name)):
        if o.failure:
            msg = o.failure.message.splitlines()[0] if o.failure.message else ""
            info = f"{_short_test(o.failure.test)}: {msg[:110]}"
            if o.failure.quality:
                info += f"  [{o.failure.quality}]"
            if _late(o):
                info += f"  [late: {o.failed_in} test]"
        else:
            info = o.detail
        if o.result in ("broken", "error") and o.detail:
            info = o.detail[:150]
        out.append(f"{o.name:<{width}}  {o.kind:<7}  {o.result:<9}  {o.seconds:>5.0f}  {info}")
    totals = summarize(outcomes)
    out += ["", "TOTALS",
            f"  mistakes caught:   {totals['mistakes_caught']}/{totals['mistakes']} "
            f"({totals['caught_pct']:.0f}%), missed {totals['mistakes_missed']}",
            f"  caught only by another milestone's test: {len(totals['caught_late'])}"
            + (f" ({', '.join(totals['caught_late'])})" if totals['caught_late'] else ""),
            f"  correct accepted:  {totals['correct_accepted']}/{totals['correct']}, "
            f"rejected {totals['correct_rejected']}",
            f"  failure messages: {totals['unhelpful']} unhelpful, {totals['no_explanation']} bare asserts "
            f"without explanation, of {totals['with_failure']} failing runs"]
    if totals["broken"] or totals["errors"]:
        out.append(f"  broken variants: {totals['broken']}, harness errors: {totals['errors']} (not counted above)")
    stale = [o.name for o in outcomes if o.warnings]
    if stale:
        out.append(f"  WARNING: {len(stale)} variant(s) ran behind a wrapper because the starter's signature "
                   f"changed (see VARIANTS OUT OF DATE)")
    if control.get("failing"):
        out.append(f"  NOTE: {len(control['failing'])} test(s) already fail on the reference and were "
                   f"deselected: {', '.join(control['failing'])}")
    if control.get("ignored"):
        out.append(f"  NOTE: the reference cannot collect {', '.join(control['ignored'])}; left out of every run")
    out.append(f"  wall time: {seconds / 60:.1f} min")
    missed = [o for o in outcomes if o.result == "missed"]
    if missed:
        out += ["", "MISSED MISTAKES (the tests pass this wrong work)"]
        for o in sorted(missed, key=lambda o: o.name):
            out.append(f"  {o.name} [{', '.join(o.replaces)}]: {o.description}")
            out.append(f"      violates: {o.violates}")
    rejected = [o for o in outcomes if o.result == "rejected"]
    if rejected:
        out += ["", "REJECTED CORRECT VARIANTS (the tests fail this right work)"]
        for o in sorted(rejected, key=lambda o: o.name):
            out.append(f"  {o.name} [{', '.join(o.replaces)}]: {o.description}")
            if o.failure:
                out.append(f"      {_short_test(o.failure.test)}" + (f"  (raised at {o.failure.raised_in})"
                                                                       if o.failure.raised_in else ""))
                out += [f"      | {line}" for line in o.failure.message.splitlines()]
    flagged = [o for o in outcomes if o.failure and o.failure.quality]
    for quality, title in (("unhelpful", "UNHELPFUL FAILURE MESSAGES (they do not say what is wrong)"),
                           ("no explanation", "BARE ASSERTS (values shown, the broken rule not named)")):
        group = sorted((o for o in flagged if o.failure.quality == quality), key=lambda o: (o.failure.test, o.name))
        if not group:
            continue
        out += ["", title]
        for o in group:
            out.append(f"  {_short_test(o.failure.test)} ({o.name}): {o.failure.why}")
            out.append(f"      | {o.failure.message.splitlines()[0][:200]}")
    warned = [o for o in outcomes if o.warnings]
    if warned:
        out += ["", "VARIANTS OUT OF DATE (the starter's signature changed; their results may mislead)"]
        out += [f"  {o.name} ({o.result}): {w}" for o in warned for w in o.warnings]
    broken = [o for o in outcomes if o.result in ("broken", "error")]
    if broken:
        out += ["", "BROKEN VARIANTS / HARNESS ERRORS (fix the variant or the harness)"]
        out += [f"  {o.name}: {o.detail}" for o in broken]
    return "\n".join(out)


def _late(o: Outcome) -> bool:
    """A mistake caught only by a test of another (later) milestone than the replaced function's."""
    return o.result == "caught" and bool(o.failed_in) and bool(o.milestones) and o.failed_in not in o.milestones


def summarize(outcomes: list[Outcome]) -> dict:
    mistakes = [o for o in outcomes if o.kind == "mistake" and o.result in ("caught", "missed")]
    correct = [o for o in outcomes if o.kind == "correct" and o.result in ("accepted", "rejected")]
    caught = sum(o.result == "caught" for o in mistakes)
    with_failure = [o for o in outcomes if o.failure]
    return {
        "mistakes": len(mistakes), "mistakes_caught": caught, "mistakes_missed": len(mistakes) - caught,
        "caught_pct": 100.0 * caught / len(mistakes) if mistakes else 0.0,
        "correct": len(correct), "correct_accepted": sum(o.result == "accepted" for o in correct),
        "correct_rejected": sum(o.result == "rejected" for o in correct),
        "unhelpful": sum(o.failure.quality == "unhelpful" for o in with_failure),
        "no_explanation": sum(o.failure.quality == "no explanation" for o in with_failure),
        "with_failure": len(with_failure),
        "broken": sum(o.result == "broken" for o in outcomes), "errors": sum(o.result == "error" for o in outcomes),
        "caught_late": sorted(o.name for o in mistakes if _late(o)),
        "missed": sorted(o.name for o in mistakes if o.result == "missed"),
        "rejected": sorted(o.name for o in correct if o.result == "rejected"),
    }


# ----------------------------------------------------------------------------- main

def _git_head(rev: str = "HEAD") -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", rev], capture_output=True, text=True,
                              timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Measure whether the guiding tests catch wrong learner work "
                                                 "and accept right work.")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only these variants (name or glob, repeatable, comma-separated)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the full results as JSON")
    parser.add_argument("--jobs", type=int, default=2, help="parallel workers (default 2)")
    parser.add_argument("--timeout", type=float, default=420, help="seconds per test run (default 420)")
    parser.add_argument("--no-control", action="store_true",
                        help="skip the control run of the unmodified reference")
    parser.add_argument("--ref", metavar="REV",
                        help="audit a committed snapshot (e.g. HEAD) instead of the working tree")
    parser.add_argument("--keep", action="store_true", help="keep the temporary starter copies")
    parser.add_argument("--list", action="store_true", help="check and list the variants, run nothing")
    parser.add_argument("--render", type=Path, metavar="JSON",
                        help="print the report of an earlier --json file again, run nothing")
    args = parser.parse_args(argv)

    if args.render:
        data = json.loads(args.render.read_text(encoding="utf-8"))
        outcomes = []
        for record in data["variants"]:
            failure = record.pop("failure")
            outcome = Outcome(**record)
            if failure:
                outcome.failure = Failure(failure["test"], failure["message"], failure.get("raised_in", ""))
                outcome.failure.quality, outcome.failure.why = judge_message(failure["message"],
                                                                             outcome.failure.raised_in)
            outcomes.append(outcome)
        print(render(outcomes, data.get("control", {}), data.get("wall_seconds", 0.0)))
        return 0

    try:
        variants = load_variants(args.only)
    except AuditError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.list:
        for v in variants:
            status = "; ".join(v.problems) if v.problems else ""
            print(f"{v.name:<44} {v.kind:<8} {','.join(v.replaces):<28} {v.description[:70]}"
                  + (f"  PROBLEM: {status}" if status else ""))
        print(f"{sum(v.kind == 'mistake' for v in variants)} mistakes, "
              f"{sum(v.kind == 'correct' for v in variants)} correct")
        return 1 if any(v.problems for v in variants) else 0

    started = time.monotonic()
    # SIGTERM ends the run like Ctrl-C: the test runs in progress are killed, the copies removed.
    def _terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _terminate)
    root = Path(tempfile.mkdtemp(prefix="audit_learner_tests_"))
    workers: list[Worker] = []
    jobs = max(1, min(args.jobs, len(variants) + (0 if args.no_control else 1)))
    try:
        global SOURCE
        if args.ref:
            SOURCE = export_snapshot(args.ref, root / "reference")
            print(f"reference: snapshot of {args.ref} in {SOURCE}", file=sys.stderr)
        print(f"starter copies: {root} ({jobs} workers)", file=sys.stderr)
        probe = root / "probe"
        make_starter(probe)
        functions = find_stubs(probe)
        baseline = filled_modules(probe, functions)
        shutil.rmtree(probe, ignore_errors=True)
        workers.extend(Worker(root, i, baseline, args.timeout) for i in range(jobs))

        control: dict = {"failing": [], "ignored": [], "passed": None, "seconds": None, "rc": None}
        control_done = threading.Event()
        if args.no_control:
            control_done.set()
        pending: queue.Queue = queue.Queue()
        if not args.no_control:
            pending.put("control")  # the first job: the reference itself, every test, no -x
        # Correct variants run every test, so they go first and the workers finish together.
        for v in sorted(variants, key=lambda v: (v.kind != "correct", v.name)):
            pending.put(v)
        results: dict[str, Outcome] = {}
        lock = threading.Lock()
        stopping = threading.Event()
        failed_control: list[str] = []

        def run_control(worker: Worker) -> None:
            print("control: the unmodified reference, all tests ...", file=sys.stderr, flush=True)
            ignore: list[str] = []
            for _ in range(3):  # a test file that cannot even be collected stops the whole session
                run = worker.pytest({}, set(), stop_first=False, deselect=[], ignore=ignore)
                broken_files = [s[1] for s in run["summary"] if s[0] == "ERROR" and "::" not in s[1]]
                if run["rc"] != 2 or not broken_files:
                    break
                ignore += [f for f in broken_files if f not in ignore]
            control.update(failing=[s[1] for s in run["summary"] if "::" in s[1]], ignored=ignore,
                           passed=run["passed"], seconds=round(run["seconds"], 1), rc=run["rc"])
            if run["timed_out"] or run["rc"] not in (0, 1):
                failed_control.append(f"the control run of the reference did not complete (exit {run['rc']}):\n"
                                      f"{_first_lines(run['output'][-3000:], 12)}")
            print(f"control: {run['passed']} passed, {len(control['failing'])} failing ({run['seconds']:.0f}s)",
                  file=sys.stderr, flush=True)
            for path in ignore:
                print(f"  the reference cannot even collect {path}: left out of the variant runs",
                      file=sys.stderr, flush=True)
            for nodeid in control["failing"]:
                print(f"  the reference already fails {nodeid}: deselected from the variant runs",
                      file=sys.stderr, flush=True)
            control_done.set()

        def work(worker: Worker) -> None:
            while not failed_control and not stopping.is_set():
                try:
                    job = pending.get_nowait()
                except queue.Empty:
                    return
                if job == "control":
                    run_control(worker)
                    continue
                variant = job
                done = control_done.is_set()
                deselect = list(control["failing"]) if done else []
                ignore = list(control["ignored"]) if done else []
                try:
                    outcome = run_variant(worker, variant, functions, deselect, ignore)
                except Exception as exc:  # keep the other variants going; report this one
                    outcome = Outcome(variant.name, variant.kind, variant.replaces, variant.description,
                                      variant.violates, variant.note, "error", detail=f"{type(exc).__name__}: {exc}")
                outcome.deselected = deselect + ignore
                with lock:
                    results[variant.name] = outcome
                    first = outcome.failure.test if outcome.failure else outcome.detail
                    print(f"[{len(results)}/{len(variants)}] {variant.name}: {outcome.result} "
                          f"({outcome.seconds:.0f}s) {_short_test(first or '')[:90]}", file=sys.stderr, flush=True)

        def run_all() -> None:
            threads = [threading.Thread(target=work, args=(w,), daemon=True) for w in workers]
            for t in threads:
                t.start()
            try:
                while any(t.is_alive() for t in threads):
                    for t in threads:
                        t.join(timeout=0.5)
            except KeyboardInterrupt:
                stopping.set()
                for w in workers:
                    w.stop()
                raise

        run_all()
        if failed_control:
            raise AuditError(failed_control[0])
        # Variants that started before the control finished ran without the deselection; one that
        # stopped at a test the reference fails as well proves nothing: run it again.
        known_bad = control["failing"] + control["ignored"]
        again = [v for v in variants if v.name in results and results[v.name].failure
                 and any(results[v.name].failure.test == bad or results[v.name].failure.test.startswith(bad + "::")
                         for bad in known_bad)]
        if again:
            print(f"re-running {len(again)} variant(s) that stopped at a test the reference fails too",
                  file=sys.stderr, flush=True)
            for v in again:
                del results[v.name]
                pending.put(v)
            run_all()
        outcomes = [results[v.name] for v in variants if v.name in results]
    except AuditError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the test runs in progress were stopped", file=sys.stderr)
        return 130
    finally:
        for w in workers:
            w.stop()
        if args.keep:
            print(f"kept: {root}", file=sys.stderr)
        else:
            shutil.rmtree(root, ignore_errors=True)

    seconds = time.monotonic() - started
    print(render(outcomes, control, seconds))
    if args.json:
        data = {"repo_commit": _git_head(args.ref or "HEAD"), "reference": args.ref or "working tree", "python": platform.python_version(), "jobs": jobs,
                "wall_seconds": round(seconds, 1), "control": control, "totals": summarize(outcomes),
                "learner_functions": {k: asdict(v) for k, v in functions.items()},
                "variants": [asdict(o) for o in sorted(outcomes, key=lambda o: (o.kind, o.name))]}
        args.json.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
