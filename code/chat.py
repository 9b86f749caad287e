"""Step 7, in conversation: questions in a loop, with follow-ups.  [provided]

A follow-up is decided by evidence, not by its length: each question is retrieved alone and
completed with the content words of the last question ("what about the margin?" after "What
was Q3 revenue?" becomes "what about the margin (q3 revenue)?"); when the question names its own
number, period or name, that replaces the last question's ("and in Q4?" after it becomes "and
in Q4 (revenue)?"). The completed search is kept only when its best chunk scores clearly higher
than the question's own (FOLLOW_UP_MARGIN); a question that stands on its own is searched as
it is. Only the last question is ever carried, so the search never snowballs. The search holds
the borrowed words' stems; --chat shows them as the last question wrote them (`borrowed`).
Typos are mended first (spelling.py): the decision and the next turn's borrowing see the words
as read.

Commands: /reset forgets the conversation, /sources shows the last answer's citations,
/help lists the commands; an empty line or Ctrl-D ends the session, Ctrl-C cancels a question.

Run alone:  python code/rag.py --chat [PDF ...] [--save-chat FILE]
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass

from citations import citation_line
from cli import as_text, printable, uninterrupted, write_file
from config import Config, RAGError
from retriever import retrieve
from spelling import document_words, misspelt, respelled
from textutils import anchors, terms

# How much higher (cosine) the completed search's best chunk must score than the question's
# own for the question to count as a follow-up. Calibrated on the tune dialogues
# (data/dialogues.json, run with `python code/evaluate.py --dialogues`): the borrowed words lift a standalone
# turn's best score by up to 0.085 (they pull the search back to the last passage), a
# follow-up's by up to 0.32. Follow-up answer rate by margin: 0.05 -> 0.667, 0.10 -> 0.733,
# 0.12 to 0.18 -> 0.800, 0.20 and more -> 0.733 (as if never completed); from 0.10 on no
# standalone turn is completed. 0.15 is the middle of the best plateau.
FOLLOW_UP_MARGIN = 0.15
HELP = "commands: /reset (forget the conversation), /sources (last citations), /help; empty line quits"


@dataclass
class Turn:
    question: str
    answer: str


def carried(question: str, last: Turn) -> set[str]:
    """The words a follow-up may borrow: the last question's content words, without its numbers,
    periods and names when the question names its own, and without what the question says.
    The last answer is not carried: on the tune dialogues its names (an extractive answer quotes
    several sentences) pulled the search back to the previous passage."""
    words = set(terms(last.question))
    if anchors(question):
        words -= anchors(last.question)
    return words - set(terms(question))


def borrowed(question: str, last: Turn) -> list[str]:
    """The carried words as the last question wrote them, in its order ("changed", where the
    search holds the stem "chang"): what --chat shows a reader."""
    words = carried(question, last)
    written = [w for w in dict.fromkeys(re.findall(r"[\w'.%-]+", last.question)) if set(terms(w)) & words]
    return written or sorted(words)


def completed(question: str, last: Turn | None) -> str:
    words = carried(question, last) if last else set()
    if not words:
        return question
    # Inside the question mark: "what about the margin (q3 revenue)?" is still one question.
    return f"{question.rstrip('?').rstrip()} ({' '.join(sorted(words))})" + ("?" if question.endswith("?") else "")


def search_text(documents, question: str, last: Turn | None, cfg: Config) -> str:
    """The question, or the question completed from the last turn when that finds stronger evidence."""
    candidate = completed(question, last)
    if candidate == question:
        return question
    collections = [d.collection for d in documents]

    def best(text: str) -> float:
        return max((c.score or 0.0 for c in retrieve(collections, text, cfg.top_k, cfg)), default=0.0)

    return candidate if best(candidate) > best(question) + FOLLOW_UP_MARGIN else question


def respond(documents, question: str, last: Turn | None, cfg: Config, ask):
    """One turn of a conversation: search (the question, or it completed from the last turn),
    answer with `ask` (rag.ask); returns the result and the turn the next question may lean on.
    The --chat loop and evaluate.py --dialogues both go through here."""
    # Respelled first: a typo is no word missing from the question, nor one for the next to borrow.
    plain = respelled(question, misspelt(question, document_words([d.collection for d in documents], cfg)))
    result = ask(documents, question, cfg, search_text(documents, plain, last, cfg))
    return result, Turn(plain, result.answer.text)


def chat(documents, cfg: Config, ask, save_to: str | None = None, html_to: str | None = None) -> None:
    """The conversation loop; `ask(documents, question, cfg, search)` is rag.ask. `html_to`: write
    the whole conversation as one HTML page when it ends."""
    print(f"Ask about the documents. {HELP}")
    state = {"last": None, "result": None, "history": []}
    try:
        _loop(documents, cfg, ask, state)
    except KeyboardInterrupt:
        # A Ctrl-C pressed at the prompt just before a read starts is held by the terminal until
        # the next line or Ctrl-D, and fires as the session ends: the session was ending anyway.
        print()
    finally:  # also when stdout went away (`| head`): the answered turns are still saved
        with uninterrupted():
            _save(state["history"], save_to, html_to)


def _loop(documents, cfg: Config, ask, state: dict) -> None:
    """Read and answer until an empty line or Ctrl-D; Ctrl-C at the prompt gives a new one."""
    while True:
        try:
            question = as_text(input("\n> ")).strip()
        except EOFError:
            return
        except KeyboardInterrupt:
            print()
            continue
        if not question:
            return
        # Ctrl-C may land anywhere in a turn, printing and recording included: it cancels the
        # turn, which is recorded last and in one step, so a cancelled turn leaves no trace.
        try:
            _turn(documents, question, cfg, ask, state)
        except KeyboardInterrupt:
            print("(cancelled)")


def _turn(documents, question: str, cfg: Config, ask, state: dict) -> None:
    """A command, or a question answered, printed and then recorded in `state`."""
    import output

    if question.startswith("/"):
        state["reset"] = state.get("reset") or question == "/reset" and bool(state["history"])
        state["last"] = _command(question, state["last"], state["result"])
        return
    try:
        result, turn = respond(documents, question, state["last"], cfg, ask)
    except RAGError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return
    record = output.to_json(result, cfg)
    if result.completed():
        record["borrowed"] = borrowed(turn.question, state["last"])
        print(f'(searched for: {question}, with "{" ".join(record["borrowed"])}" from the last question)')
    if state.pop("reset", False):
        record["after_reset"] = True  # a reader of the transcript sees why nothing was borrowed
    output.print_text(result, cfg)
    state.update(last=turn, result=result, history=[*state["history"], record])


def _save(history: list[dict], save_to: str | None, html_to: str | None) -> None:
    """--save-chat: the turns as JSON; --html: the conversation as one page. A session with no
    answered turn writes nothing: an empty file over an earlier transcript would only lose it."""
    if not history:
        if save_to or html_to:
            print("note: no question was answered, so nothing was saved", file=sys.stderr)
        return
    if save_to:
        write_file(save_to, json.dumps(history, indent=2), "--save-chat")
        print(printable(f"wrote the conversation to {save_to}"), file=sys.stderr)
    if html_to:
        import html_report

        html_report.write_html(html_to, html_report.render_conversation(history))
        print(printable(f"wrote the conversation page to {html_to}"), file=sys.stderr)


def _command(command: str, last: Turn | None, result) -> Turn | None:
    if command == "/reset":
        print("(conversation forgotten)")
        return None
    if command == "/sources":
        for c in (result.citations if result else []):
            print(f"  {citation_line(c)}")
        if not (result and result.citations):
            print("(the last answer cited nothing)" if result else "(no citations yet)")
    elif command != "/help":
        print(f"unknown command {command.split()[0]}; {HELP}")
    else:
        print(HELP)
    return last
