"""The evaluation harness, and the headline numbers EVALUATION.md documents.

The sample evaluation is re-run in-process (offline, about 5 s) and compared with the table
between the `headline` markers of EVALUATION.md, so the write-up cannot go stale.
"""

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from config import RAGError, get_config
from pdf_loader import SAMPLE_PDF
from scoring import SAMPLE_QUESTIONS, evaluate, hit_at_k, hit_rank, is_hit, load_questions, mrr_at_k

EVALUATION_MD = Path(__file__).resolve().parents[1] / "EVALUATION.md"
TOLERANCE = 0.02


@lru_cache(maxsize=1)
def sample_report() -> dict:
    # Cached per session; called from inside a test so the isolated offline env is in force.
    return evaluate(load_questions(SAMPLE_QUESTIONS), [SAMPLE_PDF], get_config())


def documented_headline(block_name: str = "headline") -> dict[str, float]:
    """{key: value} of the first value column of a marked table in EVALUATION.md."""
    text = EVALUATION_MD.read_text(encoding="utf-8")
    block = re.search(rf"<!-- {block_name}:start -->(.*?)<!-- {block_name}:end -->", text, re.S)
    assert block, f"EVALUATION.md lost its {block_name} table markers"
    rows = re.findall(r"^\|\s*`(\w+)`\s*\|[^|]*\|\s*([0-9.]+)\s*\|", block.group(1), re.M)
    return {key: float(value) for key, value in rows}


def test_documented_held_out_numbers_still_hold():
    root = EVALUATION_MD.parent / "data" / "heldout"
    documented = documented_headline("heldout")
    assert {"hit_at_k", "answer_rate", "faithfulness_answered"} <= set(documented)
    summary = evaluate(load_questions(root / "rulebook_questions.jsonl"), [root / "rulebook.pdf"],
                       get_config())["summary"]
    for key, value in documented.items():
        assert summary[key] == pytest.approx(value, abs=TOLERANCE), key


def test_documented_headline_numbers_still_hold():
    documented = documented_headline()
    assert {"hit_at_k", "mrr_at_k", "refusal_accuracy", "answer_rate",
            "faithfulness_answered"} <= set(documented)
    summary = sample_report()["summary"]
    for key, value in documented.items():
        assert summary[key] == pytest.approx(value, abs=TOLERANCE), key


def test_sample_set_meets_the_quality_bar():
    s = sample_report()["summary"]
    assert s["questions"] >= 25 and s["unanswerable"] >= 3
    assert s["hit_at_k"] >= 0.95 and s["mrr_at_k"] >= 0.85
    assert s["refusal_accuracy"] == 1.0 and s["answer_rate"] >= 0.9
    assert s["faithfulness_answered"] == 1.0


def test_results_carry_what_the_json_promises():
    result = sample_report()["results"][0]
    for key in ("question", "answer", "refused", "citations", "retrieved", "faithfulness",
                "context_relevance", "latency_s"):
        assert key in result
    assert {"id", "page", "score", "text"} <= set(result["retrieved"][0])
    assert result["citations"] and result["citations"][0]["page"] == 1


def test_hit_needs_80_percent_of_the_evidence_tokens():
    evidence = "one two three four five six seven eight nine ten"
    assert is_hit(evidence, "One, two, three, four, five, six, seven, eight and more")  # 8/10
    assert not is_hit(evidence, "one two three four five six seven")  # 7/10
    assert hit_rank(evidence, ["nothing here", evidence.upper()]) == 2


def test_hit_and_mrr_at_k():
    ranks = [1, 2, None, 6]
    assert hit_at_k(ranks, 5) == 0.5
    assert mrr_at_k(ranks, 5) == pytest.approx((1 + 0.5) / 4)
    assert hit_at_k([], 5) == 0.0


@pytest.mark.parametrize("content, line", [
    ('{"question": "ok?", "answer": "a"}\n{"question": "broken",\n', 2),
    ('{"question": "ok?", "answer": "a"}\n\n{"answer": "no question"}\n', 3),
    ('{"question": "ok?", "answer": "a"}\n{"question": "q?", "answerable": "no"}\n', 2),
    ('{"question": "needs evidence?"}\n', 1),
])
def test_bad_question_file_names_the_line(tmp_path, content, line):
    path = tmp_path / "qs.jsonl"
    path.write_text(content)
    with pytest.raises(RAGError) as err:
        load_questions(path)
    message = str(err.value)
    assert f"line {line}" in message and "\n" not in message


def test_json_list_files_are_accepted(tmp_path):
    path = tmp_path / "qs.json"
    path.write_text('[\n {"question": "Q?", "answer": "A"},\n {"question": "U?", "answerable": false}\n]')
    items = load_questions(path)
    assert [i["answerable"] for i in items] == [True, False] and items[0]["evidence"] == "A"


def test_a_byte_order_mark_is_accepted_and_other_encodings_are_one_line(tmp_path):
    path = tmp_path / "qs.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"question": "Q?", "answer": "A"}\n')  # as Windows Notepad saves UTF-8
    assert [i["question"] for i in load_questions(path)] == ["Q?"]
    path.write_bytes('{"question": "Umsatz Q3?", "answer": "4,2 Mio \u20ac"}\n'.encode("cp1252"))
    with pytest.raises(RAGError, match="not UTF-8 text.*save it as UTF-8"):
        load_questions(path)


@pytest.mark.parametrize("args, message", [
    (["--devset", "--claims"], "one at a time"),
    (["--dialogues", "d.json", "--pdf", "x.pdf", "--questions", "q.jsonl"], "one at a time"),
    (["--claims", "--top-k", "3"], "changes nothing"),
    (["--split", "tune"], "use it with --devset, --claims or --dialogues"),
    (["--dialogues", "d.json", "--split", "fresh"], "no fresh one"),
])
def test_contradictory_evaluate_flags_are_refused(args, message):
    import evaluate

    with pytest.raises(RAGError, match=message):
        evaluate.parse_args(args)


def test_claims_benchmark_keeps_the_fresh_claims_out_of_the_tune_split():
    # The fresh claims were written blind after the verifier was tuned: they are reported on
    # their own line, and the seeded tune/held-out split of the first 90 stays as documented.
    import devset

    report = devset.claims_benchmark(get_config())
    counts = {split: s["claims"] for split, s in report["summary"].items()}
    assert counts == {"tune": 48, "heldout": 42, "fresh": 46, "all": 136}, (
        f"expected 48 tune, 42 held-out and 46 fresh claims (EVALUATION.md, 'Offline answers on real "
        f"documents'), got {counts}")
    fresh = [r for r in report["results"] if r["split"] == "fresh"]
    assert {r["doc"] for r in fresh} == {"texdoc", "ltnews35", "isomath", "fhs", "autpgrp", "charis-features",
                                         "maint-guide"}, "only the fresh documents' claims are fresh"


def test_a_split_of_the_claims_is_measured_without_the_others(capsys):
    # Trying a change on the tuning half must not print the held-out numbers next to it.
    import evaluate

    evaluate.main(["--claims", "--split", "tune"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["tune"], f"expected the tune line alone, got {lines}"
    assert "claims 48 " in lines[0], f"expected the 48 tune claims: {lines[0]}"


def test_the_question_table_says_what_its_columns_mean(capsys):
    """An outside tester could not read evaluate.py's columns (ok, rec, hit, F, CR, s) or its
    REF!/ANS! marks: neither the output nor --help explained them."""
    import evaluate

    evaluate.print_report(sample_report())
    out = capsys.readouterr().out
    header = out.splitlines()[0].split()
    assert header[1:7] == ["ok", "rec", "hit", "F", "CR", "s"], f"the table's columns changed: {header}"
    legend = out[out.find("\nok: "):].split("\n\n")[0] if "\nok: " in out else ""
    for term in ("REF!", "ANS!", "rec:", "hit:", "F:", "CR:", "s:"):
        assert term in legend, f"expected a legend under the table that explains {term!r}; got {legend!r}"


def test_claims_of_your_own_are_checked_alone_with_each_wrong_verdict_shown(tmp_path, capsys):
    """An outside tester could not check claims of their own: --claims read only the dev set's
    file, and with it swapped in, 30 fresh claims were mixed into the count without a word."""
    import evaluate

    mine = tmp_path / "mine.jsonl"
    context = "Q3 revenue was 4.2M EUR. The operating margin was 21%."
    mine.write_text("\n".join(json.dumps(c) for c in [
        {"context": context, "claim": "Revenue in Q3 came to 4.2 million euros.", "supported": True, "edit": "paraphrase"},
        {"context": context, "claim": "Q3 revenue was 5.1M EUR.", "supported": False, "edit": "number"},
        {"context": context, "claim": "The operating margin was 21%.", "supported": False},  # labelled wrongly on purpose
    ]) + "\n", encoding="utf-8")
    evaluate.main(["--claims", str(mine)])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("mine.jsonl") and "claims 3 " in lines[0], f"expected one line for the file's 3 claims, got {lines}"
    assert "number 1.000 (1)" in lines[0] and "paraphrase 1.000 (1)" in lines[0], (
        f"expected accuracy per edit, with how many claims each is of: {lines[0]}")
    wrong = [line for line in lines[1:] if "The operating margin was 21%." in line]
    assert len(wrong) == 1 and "Yes" in wrong[0] and "labelled not supported" in wrong[0], (
        f"expected the one claim whose verdict differs from its label listed with both, got {lines[1:]}")
    assert not any("4.2 million" in line or "5.1M" in line for line in lines[1:]), "claims judged as labelled are not listed"


@pytest.mark.parametrize("line, message", [
    ('{"claim": "x", "supported": true}', 'line 1: "context" is missing'),
    ('{"context": "c", "claim": "x", "supported": "yes"}', '"supported" must be true or false'),
    ('{"context": "c", "claim": "x"', "line 1: invalid JSON"),
])
def test_a_bad_claims_file_is_one_line_naming_the_entry(tmp_path, line, message):
    import evaluate

    bad = tmp_path / "bad.jsonl"
    bad.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(RAGError, match=re.escape(message)):
        evaluate.main(["--claims", str(bad)])
    with pytest.raises(RAGError, match="--split picks a half of the dev set"):
        evaluate.parse_args(["--claims", str(bad), "--split", "tune"])


def test_a_claims_file_cannot_act_on_the_terminal_or_forge_a_line(tmp_path, capsys):
    """An outside auditor: a claim holding escape codes cleared the screen and set the window
    title, a newline in it printed a forged line, and the file name and "edit" went out raw too."""
    import evaluate

    bad = tmp_path / "evil\x1b[31m.jsonl"
    bad.write_text(json.dumps({"context": "Q3 revenue was 4.2M.", "claim": "\x1b[2JRevenue was 5M.\nwrote the report to /etc/passwd",
                               "supported": True, "edit": "\x1b]0;pwned\x07"}) + "\n", encoding="utf-8")
    evaluate.main(["--claims", str(bad)])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out, f"expected no control characters on the terminal, got {out!r}"
    assert not any(line.startswith("wrote the report") for line in out.splitlines()), f"a claim forged a line: {out!r}"


@pytest.mark.parametrize("args, message", [
    (["--claims", ""], "--claims got an empty file name"),
    (["--dialogues", ""], "--dialogues got an empty file name"),
])
def test_an_empty_file_name_is_not_taken_for_no_flag(args, message):
    """`--claims "$UNSET"` ran the whole sample evaluation instead (an outside auditor)."""
    import evaluate

    with pytest.raises(RAGError, match=re.escape(message)):
        evaluate.parse_args(args)


@pytest.mark.parametrize("edit", [{"a": 1}, 0, False])
def test_an_edit_that_is_not_a_string_is_named(tmp_path, edit):
    import evaluate

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"context": "c", "claim": "x", "supported": True, "edit": edit}) + "\n", encoding="utf-8")
    with pytest.raises(RAGError, match='"edit" must be a string'):
        evaluate.main(["--claims", str(bad)])


def test_a_claims_file_that_is_a_pipe_is_refused_not_waited_on(tmp_path):
    """`mkfifo f; evaluate.py --claims f` waited for a writer forever; --claims /dev/zero read
    until memory ran out (an outside auditor)."""
    import os

    import evaluate

    fifo = tmp_path / "claims.jsonl"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        with pytest.raises(RAGError, match="not a regular file"):
            evaluate.main(["--claims", str(path)])


def test_json_output_never_replaces_a_pdf_that_the_dialogue_file_names(tmp_path):
    """An outside auditor's data loss: `--dialogues d.json --json victim.pdf` wrote the report
    over the PDF the dialogue file named (the inputs checked were only the flags' files)."""
    import evaluate

    victim = tmp_path / "victim.pdf"
    victim.write_bytes(SAMPLE_PDF.read_bytes())
    dialogues = tmp_path / "d.json"
    dialogues.write_text(json.dumps([{"pdf": str(victim), "turns": [{"question": "Who is the CEO?",
                                                                     "answer": "Maria Lopez"}]}]), encoding="utf-8")
    with pytest.raises(RAGError, match="input document or the index"):
        evaluate.main(["--dialogues", str(dialogues), "--json", str(victim)])
    assert victim.read_bytes() == SAMPLE_PDF.read_bytes(), "expected the PDF the dialogue names left as it was"


def test_the_table_shows_answer_recall_and_a_dash_without_a_reference(tmp_path, capsys):
    """A wrong answer read as a plain "ans" (an outside tester); the rec column tells. A question
    without a reference answer has no recall: "-", not a crash."""
    import evaluate

    questions = tmp_path / "q.jsonl"
    questions.write_text('{"question": "What was Q3 revenue?", "answer": "4.2M EUR", "evidence": "Q3 revenue was 4.2M"}\n'
                         '{"question": "What was the operating margin?", "evidence": "operating margin was 21%"}\n',
                         encoding="utf-8")
    evaluate.main(["--pdf", str(SAMPLE_PDF), "--questions", str(questions)])
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:3]]
    assert rows[0][1:3] == ["ans", "1.00"] and rows[1][1:3] == ["ans", "-"], f"expected rec 1.00 and '-': {rows}"


def test_an_answer_far_from_its_reference_is_flagged_in_the_table_and_on_the_page(tmp_path, capsys):
    """A 26th outside tester's evaluation page said "23 of 124 fail" and showed some 45 wrong
    answers as passed: only refusals, misses and answered unanswerables failed. An answer holding
    under half of the reference answer's words is now "ans?" in the table and "read it" on the page."""
    import evaluate

    questions = tmp_path / "q.jsonl"
    questions.write_text('{"question": "What was Q3 revenue?", "answer": "zebra quantum lighthouse", '
                         '"evidence": "Q3 revenue was 4.2M"}\n'
                         '{"question": "What was Q3 revenue?", "answer": "4.2M EUR", "evidence": "Q3 revenue was 4.2M"}\n',
                         encoding="utf-8")
    page = tmp_path / "eval.html"
    evaluate.main(["--pdf", str(SAMPLE_PDF), "--questions", str(questions), "--html", str(page)])
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:3]]
    assert [r[1] for r in rows] == ["ans?", "ans"], f"expected the far answer flagged, the close one not: {rows}"
    text = page.read_text(encoding="utf-8")
    assert "0 of 2 fail; 1 more is answered with under 50% of the reference answer" in text, "expected the count"
    assert text.count("? read it") == 1 and "holds 0% of the reference answer's words" in text, "expected the row flagged"
