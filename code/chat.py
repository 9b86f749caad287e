"""Step 7, in conversation: questions in a loop, with follow-ups.  [provided]

A follow-up ("what about Q4?") is searched together with the question it follows; a question
that stands on its own is searched as it is.

Run alone:  python code/rag.py --chat [PDF ...]
"""

from __future__ import annotations

import sys

from config import Config, RAGError

# Follow-ups: a question this short, or opening with a cue, inherits the previous question.
FOLLOW_UP_MAX_WORDS = 5
FOLLOW_UP_CUES = ("what about", "how about", "and ", "also", "what of", "same for", "why", "how so")


def contextualize(question: str, previous: str | None) -> str:
    """The text to search for: a bare follow-up ("what about Q4?") inherits the previous
    question's words; a standalone question is searched as it is, unpolluted."""
    if not previous:
        return question
    lowered = question.lower().strip()
    if len(question.split()) <= FOLLOW_UP_MAX_WORDS or lowered.startswith(FOLLOW_UP_CUES):
        return f"{previous} {question}"
    return question


def chat(documents, cfg: Config) -> None:
    import output
    from rag import ask

    print("Ask about the document (empty line or Ctrl-D to quit).")
    previous = None
    while True:
        try:
            question = input("\n> ").strip()
        except EOFError:
            break
        if not question:
            break
        try:
            result = ask(documents, question, cfg, contextualize(question, previous))
        except RAGError as exc:
            print(f"error: {exc}", file=sys.stderr)
            continue
        if result.search != question:
            print(f"(searched for: {result.search})")
        output.print_text(result, cfg)
        previous = result.search
