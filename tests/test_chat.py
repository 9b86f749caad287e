"""The conversation (--chat): follow-ups decided by evidence, the commands, Ctrl-C, and the
scripted dialogues' runner (evaluate.py --dialogues). Real components only: the offline
stand-in, Chroma, WordLlama and the sample report."""

import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import chat
import dialogues
import documents
import evaluate
import rag
from config import RAGError, get_config
from test_robustness import cli  # rag.py's command line, run in-process
from textutils import terms

CODE = Path(__file__).resolve().parents[1] / "code"
DEAL = ["What was the largest customer deal of the quarter?", "When was it signed?",
        "How many gateways does it cover?", "When do deliveries start?"]


def converse(questions: list[str]) -> list:
    """The questions as one conversation over the sample report, each turn as --chat takes it."""
    cfg = get_config()
    indexed = documents.index_documents(documents.pdf_paths([]), cfg, show_progress=False)
    last, results = None, []
    for question in questions:
        result, last = chat.respond(indexed, question, last, cfg, rag.ask)
        results.append(result)
    return results


# ------------------------------------------------------------------- what a follow-up borrows

def test_a_follow_up_borrows_the_last_questions_words_and_never_snowballs():
    first = chat.Turn("What was Q3 revenue?", "Q3 revenue was 4.2M EUR, up 8% year over year [c0].")
    assert chat.completed("what about the margin?", first) == "what about the margin (q3 revenue)?"
    # A period, number or name of its own replaces the last question's: Q4, not Q3.
    assert chat.completed("and in Q4?", first) == "and in Q4 (revenue)?"
    # Only the last question is carried, never the history (nor the answer's many names).
    second = chat.Turn("what about the margin?", "The operating margin was 21% [c1].")
    assert chat.completed("And in Berlin?", second) == "And in Berlin (margin)?"
    assert chat.completed("What was Q3 revenue?", first) == "What was Q3 revenue?", "nothing left to borrow"
    assert chat.completed("What was Q3 revenue?", None) == "What was Q3 revenue?"


@pytest.mark.parametrize("before", [["What was Q3 revenue?"], ["What was Q3 revenue?", "what about Q4?"]],
                         ids=["after-revenue", "after-revenue-and-q4"])
def test_the_issues_example_who_is_the_cfo_is_searched_as_it_is_and_answered(before):
    *_, cfo = converse(before + ["Who is the CFO?"])
    assert cfo.search == "Who is the CFO?", f"searched as {cfo.search!r}"
    assert not cfo.answer.refused and "Tobias Reinholt" in cfo.answer.text, cfo.answer.text
    assert {c["page"] for c in cfo.citations} == {5}, "answered from the governance passage (page 5)"


def test_a_topic_switch_after_three_follow_ups_is_searched_as_it_is():
    results = converse(DEAL + ["How much cash did the company hold at the end of September?"])
    questions = [r.question for r in results]
    assert "August" in results[1].answer.text and "900" in results[2].answer.text
    cash, (alone,) = results[-1], converse([results[-1].question])
    assert cash.search == cash.question, f"searched as {cash.search!r}"
    assert cash.answer.text == alone.answer.text, "the same answer as when asked alone"
    for before, result in zip(questions, results[1:]):
        borrowed = set(terms(result.search)) - set(terms(result.question))
        assert borrowed <= set(terms(before)), f"{result.search!r} carries more than the last question"


def test_a_follow_up_after_a_refusal_is_answered():
    q2, q3 = converse(["What was revenue in Q2 2024?", "And in Q3?"])
    assert q2.answer.refused, "the sample report gives no Q2 revenue"
    assert not q3.answer.refused and "4.2M EUR" in q3.answer.text, q3.answer.text
    assert q3.search in ("And in Q3?", "And in Q3 (revenue)?"), "Q3 replaces Q2 2024; no word of the refusal"


# ---------------------------------------------------------------------------- the commands

def test_chat_commands_reset_sources_help_and_save_chat(monkeypatch, capsys, tmp_path):
    script = ("/sources\nHow many customers did Larkspur have?\nand a year earlier?\n/sources\n/help\n/resett\n"
              "/reset\nand a year earlier?\n\n")
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    code, out, err = cli(["--chat", "--save-chat", str(tmp_path / "chat.json"), "--html", str(tmp_path / "chat.html")],
                         capsys)
    assert code == 0, err
    assert out.index("(no citations yet)") < out.index("Q: How many customers")
    # The follow-up is searched completed, and --chat says so, in the words the last question
    # wrote, not their stems ("(customer larkspur)"; an outside tester read "(chang release)");
    # after /reset it has nothing to lean on.
    shown = '(searched for: and a year earlier?, with "customers Larkspur" from the last question)'
    assert out.count("(searched for:") == 1 and shown in out, f"expected the line {shown!r} in {out!r}"
    turn = out.split(shown)[1].split("(conversation forgotten)")[0]
    cited = re.findall(r'\[c\d+\] p\.\d+ \(sample_report\.pdf\): ".*"', turn)
    half = len(cited) // 2
    assert half and cited[:half] == cited[half:], "/sources repeats the answer's citations with their quotes"
    assert "287 customers a year earlier" in "".join(cited) and "commands: /reset" in turn, "/help"
    assert "unknown command /resett; commands: /reset" in turn, "a mistyped command is named, not silently helped"
    saved = json.loads((tmp_path / "chat.json").read_text())
    assert [t["question"] for t in saved] == ["How many customers did Larkspur have?", "and a year earlier?",
                                              "and a year earlier?"]
    assert [t["search"] for t in saved][1:] == ["and a year earlier (customer larkspur)?", "and a year earlier?"]
    assert [t.get("borrowed") for t in saved] == [None, ["customers", "Larkspur"], None], "the words shown are kept"
    # a reader of the transcript sees why the third turn borrowed nothing (a 26th outside tester)
    assert [t.get("after_reset") for t in saved] == [None, None, True], "expected the turn after /reset marked"
    page = (tmp_path / "chat.html").read_text(encoding="utf-8")
    lean = "Searched with &ldquo;customers Larkspur&rdquo; from the last question."
    assert page.count(lean) == 1, f"expected the conversation page to say, once, {lean!r}"
    assert page.count("Asked after /reset") == 1, "expected the page to say which turn came after /reset"


def test_sources_after_a_refusal_says_the_last_answer_cited_nothing(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("What was Q3 revenue?\nWho is the CEO of Apple?\n/sources\n\n"))
    code, out, err = cli(["--chat"], capsys)
    assert code == 0 and out.rstrip().endswith("(the last answer cited nothing)\n\n>"), out[-300:]


def test_a_misspelt_question_in_chat_is_read_respelled_not_taken_for_a_follow_up(monkeypatch, capsys):
    """A typo makes the search differ from the question: that is no follow-up, with or without a
    turn before it (with none, --chat used to fail looking for the last question's words)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("What was the operting margin in Q3?\nWhat was the Q3 revnue?\n\n"))
    code, out, err = cli(["--chat"], capsys)
    assert code == 0, err
    for typed, read in (("operting", "operating"), ("revnue", "revenue")):
        assert f'(read "{typed}" as "{read}")' in out, f"expected the reading of {typed!r} shown:\n{out}"
    assert "(searched for:" not in out, f"a respelled question is not a follow-up:\n{out}"
    assert "21%" in out and "4.2M" in out, f"expected both questions answered:\n{out}"


def test_a_follow_up_borrows_the_last_questions_words_as_read_not_as_typed(monkeypatch, capsys):
    """The last question's typos ("opeerating magin") are mended before a follow-up borrows its
    words; borrowed as typed, they found nothing and "compare with a year earlier" was searched
    alone, which quotes the customer count."""
    monkeypatch.setattr("sys.stdin", io.StringIO("What was the opeerating magin in Q3?\n"
                                                 "How does that compare with a year earlier?\n\n"))
    code, out, err = cli(["--chat"], capsys)
    assert code == 0, err
    assert 'with "operating margin Q3" from the last question' in out, f"expected the mended words borrowed:\n{out}"
    follow_up = out.split("compare with a year earlier", 1)[1]
    assert "17%" in follow_up, f"expected the margin sentence (21% against 17% a year earlier) again:\n{follow_up}"


def _ctrl_c_as_a_terminal_sends_it():
    # A shell starts background jobs (`pytest &`) with SIGINT ignored, and children inherit that;
    # these tests are about what Ctrl-C does, so the child gets the terminal's default back.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


AS_FROM_A_TERMINAL = {"preexec_fn": _ctrl_c_as_a_terminal_sends_it} if os.name == "posix" else {}


def _read_until(process, marker: str, timeout: float = 60.0) -> str:
    text, end = "", time.monotonic() + timeout
    while marker not in text and time.monotonic() < end and process.poll() is None:
        if select.select([process.stdout], [], [], 0.1)[0]:
            text += os.read(process.stdout.fileno(), 65536).decode("utf-8", "replace")
    return text


def _cpu_ticks(process) -> int:
    assert process.poll() is None, f"Ctrl-C ended the session: {process.stderr.read().decode()}"
    fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see when a question is being worked on")
def test_ctrl_c_cancels_the_question_not_the_session():
    process = subprocess.Popen([sys.executable, str(CODE / "rag.py"), "--chat"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                               **AS_FROM_A_TERMINAL)
    try:
        assert "\n> " in _read_until(process, "\n> "), process.stderr.read().decode()
        cancelled = ""
        # Ctrl-C once the process works on the question (its CPU time moves). A question asked
        # again, warm, takes about 25 ms of CPU: each try asks another one, and signals at the
        # first tick, or a try after a missed first one would end before its Ctrl-C.
        for question in ("What was Q3 revenue?", "What was the operating margin?", "How many customers were there?",
                         "When did the Berlin office open?", "What is the main risk?"):
            ticks = _cpu_ticks(process)
            process.stdin.write(question.encode() + b"\n")
            process.stdin.flush()
            end = time.monotonic() + 10
            while _cpu_ticks(process) < ticks + 1 and time.monotonic() < end:
                time.sleep(0.002)
            process.send_signal(signal.SIGINT)
            cancelled = _read_until(process, "\n> ")
            if "(cancelled)" in cancelled:
                break
        assert "(cancelled)" in cancelled, cancelled
        process.stdin.write(b"Who is the CFO?\n")
        process.stdin.flush()
        assert "Tobias Reinholt" in _read_until(process, "Faithfulness"), "the session goes on after a cancel"
        process.stdin.write(b"\n")
        process.stdin.flush()
        assert process.wait(timeout=30) == 0, process.stderr.read().decode()
    finally:
        process.kill()
        process.wait()


def test_ctrl_c_after_the_answer_is_printed_cancels_that_turn_only(monkeypatch, capsys, tmp_path):
    """Ctrl-C can land while the answer is being recorded, after it is printed: the session goes on,
    and the cancelled turn is neither saved nor leaned on by the next question."""
    import output

    to_json, calls = output.to_json, []

    def interrupted_once(result, cfg):
        calls.append(result.question)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return to_json(result, cfg)

    monkeypatch.setattr(output, "to_json", interrupted_once)
    monkeypatch.setattr("sys.stdin", io.StringIO("How many customers did Larkspur have?\nand a year earlier?\n\n"))
    code, out, err = cli(["--chat", "--save-chat", str(tmp_path / "chat.json")], capsys)
    assert code == 0 and "(cancelled)" in out, f"exit {code}, the session should go on: {err}"
    saved = json.loads((tmp_path / "chat.json").read_text())
    assert [t["question"] for t in saved] == ["and a year earlier?"], "only the turn that finished is saved"
    assert "(searched for:" not in out, "a cancelled turn is no conversation to follow up on"


# Ctrl-C lands in the middle of LiteLLM's first import (its 300th submodule of over a thousand;
# cut there, litellm 1.110 is left half-made without the deferral).
CUT_IMPORT = """
import os, signal, sys
sys.path.insert(0, sys.argv[1])
import llm

class CtrlC:
    seen = 0
    def find_spec(self, name, path=None, target=None):
        if name.startswith("litellm."):
            CtrlC.seen += 1
            if CtrlC.seen == 300:
                os.kill(os.getpid(), signal.SIGINT)

sys.meta_path.insert(0, CtrlC())
try:
    llm.load_litellm()
except KeyboardInterrupt:
    print("cancelled")
reply = llm.load_litellm().completion(model="openai/any", messages=[{"role": "user", "content": "hi"}],
                                      mock_response="whole")
print(reply.choices[0].message.content)
"""


def test_ctrl_c_while_litellm_loads_takes_effect_after_and_leaves_it_whole():
    """With a real model, the first question imports LiteLLM (seconds); a Ctrl-C then must still
    cancel, and must not leave a half-imported LiteLLM that fails every later question."""
    done = subprocess.run([sys.executable, "-c", CUT_IMPORT, str(CODE)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
                          **AS_FROM_A_TERMINAL)
    assert done.stdout.split() == ["cancelled", "whole"], \
        f"expected the cancel, then a working LiteLLM; got {done.stdout!r}\n{done.stderr[-800:]}"


# ------------------------------------------------------------------ evaluate.py --dialogues

SMALL = [
    {"pdf": "data/sample_report.pdf", "split": "tune", "turns": [
        {"question": "What was Q3 revenue?", "answer": "4.2M EUR", "answerable": True, "followup": False,
         "evidence": "Q3 revenue was 4.2M EUR, up 8% year over year."},
        {"question": "and in Q4?", "answer": "between 4.5M EUR and 4.8M EUR", "answerable": True, "followup": True,
         "evidence": "For the fourth quarter of 2024, Larkspur expects revenue between 4.5M EUR and 4.8M EUR."},
        {"question": "Who is the CFO?", "answer": "Tobias Reinholt", "answerable": True, "followup": False,
         "evidence": "Chief Financial Officer Tobias Reinholt, who joined in April 2022."},
        {"question": "What's the weather forecast for Munich tomorrow?", "answerable": False, "followup": False}]},
    {"pdf": "data/sample_report.pdf", "split": "heldout", "turns": [
        {"question": "Who chairs the supervisory board?", "answer": "Helga Brandstetter", "answerable": True,
         "followup": False, "evidence": "The supervisory board has five members and is chaired by Helga Brandstetter."}]},
]


def test_evaluate_dialogues_scores_each_turn_in_its_conversation_and_alone(tmp_path, capsys):
    path, out = tmp_path / "dialogues.json", tmp_path / "report.json"
    path.write_text(json.dumps(SMALL), encoding="utf-8")
    evaluate.main(["--dialogues", str(path), "--json", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    tune = report["summary"]["tune"]
    assert (tune["standalone"]["turns"], tune["followup"]["turns"], report["summary"]["heldout"]["standalone"]["turns"]) == (3, 1, 1)
    assert tune["standalone"]["hit_at_k"] == 1.0 and tune["standalone"]["refusal_accuracy"] == 1.0
    assert tune["standalone"]["worse_than_alone"] == 0 and tune["standalone"]["answer_rate"] == 1.0
    assert [r["turn"] for r in report["results"]] == [1, 2, 3, 4, 1] and "alone" in report["results"][1]
    evaluate.main(["--dialogues", str(path)])
    text = capsys.readouterr().out
    assert "follow-up margin" in text and "standalone turns worse than when asked alone: 0" in text
    assert any(line.split()[:3] == ["tune", "followup", "1"] for line in text.splitlines())


def test_a_split_of_the_dialogues_runs_only_its_dialogues(tmp_path):
    """`--split tune` asks only the tune half's dialogues: a change tried on tune does not print
    held-out numbers beside it."""
    path, out = tmp_path / "dialogues.json", tmp_path / "report.json"
    path.write_text(json.dumps([{**SMALL[0], "split": "tune"}, {**SMALL[1], "split": "heldout"}]), encoding="utf-8")
    evaluate.main(["--dialogues", str(path), "--split", "tune", "--json", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    assert {r["split"] for r in report["results"]} == {"tune"}, f"expected tune turns only, got {report['results']}"
    assert report["summary"]["heldout"]["standalone"]["turns"] == 0, "expected no held-out turn asked"


def test_a_dialogue_over_several_pdfs_searches_them_all(tmp_path):
    """A dialogue's "pdf" may list PDFs, asked together as `rag.py --chat A.pdf B.pdf` asks them."""
    path, out = tmp_path / "dialogues.json", tmp_path / "report.json"
    both = {"pdf": ["data/sample_report.pdf", "data/heldout/rulebook.pdf"], "split": "tune",
            "turns": [SMALL[0]["turns"][0], SMALL[0]["turns"][2]]}
    path.write_text(json.dumps([both]), encoding="utf-8")
    evaluate.main(["--dialogues", str(path), "--json", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["summary"]["tune"]["standalone"]["hit_at_k"] == 1.0, \
        f"expected both sample-report turns found among two PDFs; got {report['results']}"
    sources = {cid.split(":")[0] for r in report["results"] for cid in re.findall(r"\[([\w.:-]+)\]", r["answer"])}
    assert sources == {"sample_report"}, f"expected answers citing the sample report's chunks as sample_report:cN; got {sources}"
    path.write_text(json.dumps([{**both, "pdf": ["data/sample_report.pdf", "missing.pdf"]}]), encoding="utf-8")
    with pytest.raises(RAGError, match="missing.pdf"):
        dialogues.load_dialogues(path)


def test_a_bad_dialogue_file_is_one_error_naming_the_turn(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{**SMALL[1], "turns": [{**SMALL[1]["turns"][0], "followup": "yes"}]}]), encoding="utf-8")
    with pytest.raises(RAGError, match="dialogue 1 turn 1.*followup"):
        dialogues.load_dialogues(path)
    path.write_text(json.dumps([{"pdf": "missing.pdf", "turns": [{"question": "q?"}]}]), encoding="utf-8")
    with pytest.raises(RAGError, match="missing.pdf"):
        dialogues.load_dialogues(path)
    # an auditor's: a number in the list was called a missing "pdf", a folder a missing PDF
    path.write_text(json.dumps([{"pdf": ["data/sample_report.pdf", 5], "turns": [{"question": "q?"}]}]), encoding="utf-8")
    with pytest.raises(RAGError, match="each entry of \"pdf\" is a PDF's path"):
        dialogues.load_dialogues(path)
    path.write_text(json.dumps([{"pdf": str(tmp_path), "turns": [{"question": "q?"}]}]), encoding="utf-8")
    with pytest.raises(RAGError, match="is a folder; name the PDF files"):
        dialogues.load_dialogues(path)


def test_a_session_with_no_answered_question_leaves_an_earlier_transcript(monkeypatch, capsys, tmp_path):
    """Ctrl-D at the first prompt wrote "[]" over the transcript --save-chat named."""
    earlier = tmp_path / "chat.json"
    earlier.write_text('[{"question": "What was Q3 revenue?"}]')
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, _, err = cli(["--chat", "--save-chat", str(earlier)], capsys)
    assert code == 0 and "nothing was saved" in err, err
    assert json.loads(earlier.read_text()) == [{"question": "What was Q3 revenue?"}], \
        "expected the earlier transcript left as it was"
