"""Citations: what a chunk id in an answer looks like, what a refusal looks like, and which
sentence of a cited chunk backs an answer.  [provided]

* `CITE` finds `[c0]` and `[report:c3]` (generator.py offers it as `_CITE`, the spec's name);
* `is_refusal(text)` tells "I don't know ..." from an answer, whatever the apostrophe;
* `resolve_citations(answer, context)` gives each valid citation its file, page and quoted
  sentence ("" when no sentence of the chunk shares a word with the answer), and lists the
  answer sentences that cite nothing; `citation_line` shows one as the terminal prints it.

Run alone:  python code/citations.py "Revenue was 4.2M [c0]. I don't know [c1]."
"""

from __future__ import annotations

import re
import sys

from cli import run_cli
from textutils import split_sentences, terms

# A citation is a chunk id in square brackets: [c0], or [report:c3] when several files are searched.
CITE = re.compile(r"\[((?:[\w.-]+:)?c\d+)\]")
# Several ids in one pair of brackets, as real models often write them: "[c0, c12]".
GROUPED = re.compile(r"\[\s*((?:[\w.-]+:)?c\d+(?:\s*[,;]\s*(?:[\w.-]+:)?c\d+)+)\s*\]")
# A citation marker with the space before it; other brackets ("[Function]", "[1]") are text.
MARKER = re.compile(r"\s*" + CITE.pattern)
NO_QUOTE = "(no sentence of it shares a word with the answer sentence that cites it)"
QUOTE_GAP = " \u2026 "  # between two quoted sentences of one chunk that are not neighbours
REFUSAL = "I don't know: the provided context does not contain the answer."
# A real model declines in the prompt's words: "I don't know", "the context does not contain the
# answer", and when told "if the passages do not cover it, say so", "The passages do not cover ...".
_REFUSAL = re.compile(r"\b(i|we) (do not|don't|cannot|can't|could not|couldn't) (know|answer|find|help|tell)\b|"
                      r"\bnot (contain|include|mention|state)\w*\b.{0,40}\b(answer|information)\b|"
                      r"\b(context|passages?|documents?|sources?|excerpts?)\s+(do|does|did)(\s+not|n't)\s+"
                      r"(contain|include|mention|state|say|cover|answer|address|provide|specify)\b|"
                      r"\binsufficient (information|context)\b", re.I | re.S)
_QUOTES = str.maketrans("\u2018\u2019\u201a\u201b\u02bc\u201c\u201d\u201e", "''''\"\"\"\"")


def ungroup(text: str) -> str:
    """One id per pair of brackets, the form CITE reads: "[c0, c12]" becomes "[c0][c12]"."""
    return GROUPED.sub(lambda m: "".join(f"[{i.strip()}]" for i in re.split(r"[,;]", m.group(1))), text)


def normalise_quotes(text: str) -> str:
    """Typographic apostrophes and quotes as plain ones: "I don’t know" reads "I don't know"."""
    return text.translate(_QUOTES)


def is_refusal(text: str) -> bool:
    """Does the text decline to answer ("I don't know", "the context does not contain ...", "the
    passages do not cover ...") and state nothing of its own? A reply that answers in part,
    citing a passage for a sentence that does not decline, and declines the rest ("X was founded
    in 1998 [c4]. I don't know by whom.") is an answer: what it states must be checked. A refusal
    may mention ids ("[c1] does not say")."""
    text = normalise_quotes(text)
    if not text.strip():
        return True
    return bool(_REFUSAL.search(text)) and not any(
        CITE.search(sentence) and not _REFUSAL.search(sentence) for sentence in split_sentences(text))


# A sentence that already ended inside its brackets or quotes before the marker: "(... 1 ns.) [c1]."
_ENDED_TWICE = re.compile(r"""([.!?]["'’”)\]]+)\.$""")


def strip_markers(text: str) -> str:
    return _ENDED_TWICE.sub(r"\1", MARKER.sub("", text).strip())


def best_quote(answer_sentence: str, chunk_text: str) -> str:
    """The chunk sentence that best backs an answer sentence: the quote shown with a citation;
    "" when no sentence shares a content word with it (its first sentence would pose as proof)."""
    claim = set(terms(answer_sentence))
    sentences = split_sentences(chunk_text) or [chunk_text]
    # Words copied from inside a long sentence (a table's run, an option list) are backed by
    # that sentence, however long; the length penalty below is for sentences that only share words.
    copied = " ".join(answer_sentence.split()).rstrip(".!?")
    holding = [s for s in sentences if len(copied) > 1 and copied in s]
    if holding:
        return min(holding, key=len)
    best = max(sentences, key=lambda s: len(claim & set(terms(s))) / (1 + 0.01 * len(s)))
    return best if claim & set(terms(best)) else ""


def page_name(citation: dict, word: str = "p.") -> str:
    """"p.140", or "p.140, printed 124" where the PDF numbers its pages its own way."""
    label = citation.get("page_label")
    return f"{word}{citation['page']}" + (f", printed {label}" if label else "")


def citation_line(citation: dict) -> str:
    """A resolved citation as the terminal shows it: id, page, file and the quote."""
    quote = f'"{citation["quote"]}"' if citation["quote"] else NO_QUOTE
    return f"[{citation['id']}] {page_name(citation)} ({citation['source']}): {quote}"


def resolve_citations(answer, context: list) -> tuple[list[dict], list[str]]:
    """Each valid citation of `answer` (an Answer) with its file, page and quoted sentence, in
    order of first use; and the answer sentences that state something without citing any
    chunk of `context` (a sentence that declines states nothing). A refusal has neither."""
    by_id = {c.id: c for c in context}
    quotes: dict[str, list[str]] = {}  # chunk id -> the sentences it backs, in order of first use
    uncited: list[str] = []
    if answer.refused:
        return [], uncited
    for sentence in split_sentences(answer.text):
        ids = [i for i in CITE.findall(sentence) if i in by_id]
        if not ids and re.search(r"\w", strip_markers(sentence)) and not is_refusal(sentence):
            uncited.append(sentence)
        for cid in ids:
            quote, found = best_quote(strip_markers(sentence), by_id[cid].text), quotes.setdefault(cid, [])
            if quote and quote not in found:  # a chunk that backs nothing is still listed, unquoted
                found.append(quote)
    return [{"id": cid, "source": by_id[cid].source, "page": by_id[cid].page, "page_label": by_id[cid].page_label,
             "quote": joined(found, by_id[cid].text)} for cid, found in quotes.items()], uncited


def joined(quotes: list[str], text: str) -> str:
    """The quoted sentences of one chunk in the chunk's order, a gap between them marked by
    QUOTE_GAP: a chunk cited by two answer sentences backs both. No sentence: ""."""
    if not quotes:
        return ""
    if any(text.find(q) < 0 for q in quotes):
        return QUOTE_GAP.join(quotes)
    ordered = sorted(quotes, key=text.find)
    out = ordered[0]
    for before, after in zip(ordered, ordered[1:]):
        between = text[text.find(before) + len(before):text.find(after)]
        out += " " + after if not between.strip() else QUOTE_GAP + after
    return out


def main(argv: list[str] | None = None) -> None:
    text = " ".join(sys.argv[1:] if argv is None else argv) or "Revenue was 4.2M [c0][report:c3]. I don’t know."
    print(f"citations: {CITE.findall(ungroup(text))}   (a model's reply, as llm.completion returns it)")
    for sentence in split_sentences(text):
        print(f"  {strip_markers(sentence)!r}: refusal={is_refusal(sentence)}")


if __name__ == "__main__":
    run_cli(main)
