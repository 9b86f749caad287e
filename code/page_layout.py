"""Step 1, page layout: what a PDF page's lines are, beyond their words.  [provided]

`pdf_loader` reads each page with `page_text`, which reads a gap between two words as a space
where pypdf would run them together (word_breaks.py), marks an exponent set after a number ("2^31",
which pypdf gives as "231") and moves the page's footnotes out of a sentence the page break cuts
(`footnotes_aside`), and calls these on the text: `strip_running_lines` drops running headers,
footers and page numbers; `mark_headings` ends heading and list-item lines with a full stop so
chunking cannot glue them to the next sentence; `is_glued` notices a text layer that lost the
spaces between its words (`glued_share`; the loader then warns: answers from such text are poor).

Run alone:  python code/page_layout.py [TEXT_FILE]    (its glued share and the lines marked as
            headings; the sample report's page text by default)
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from cli import run_cli
from config import REPO_ROOT, RAGError
from textutils import is_title_case, sentence_spans
from word_breaks import WordBreaks


# An exponent is set as a smaller, raised run right after a number: "2" then "31". pypdf gives its
# digits as the number's own ("231" for 2^31). A run at most this share of the number's font size.
EXPONENT_SIZE = 0.8
_EXPONENT = re.compile(r"\s*[-\u2212]?\d+\s*")
# Its base is a number of one or two digits (2, 10, 16); after a longer one ("ISO/IEC 60059",
# "2019") a small raised digit is a footnote mark.
_BASE = re.compile(r"(?<![\w.,])\d{1,2}$")


# Text drawn this far (points, an inch) outside the page's box is off the page (a hostile PDF
# hides lines there); nearer, it may be a line that overflows the margin and is still seen.
OFF_PAGE = 72


def page_text(page) -> str:
    """The text of a pypdf page as pypdf extracts it, with each exponent after a number marked
    ("2^31", "10^9") and the footnotes aside. A footnote mark set after a number of one or two
    digits reads as an exponent too.
    A line drawn off the page (OFF_PAGE) is left out: no reader of the page sees it (unless most
    of the page is "off", or the page draws forms: then its positions may be misread)."""
    runs: list[tuple[str, float, float]] = []  # (text, font size, baseline) of each run drawn
    unseen: list[str] = []  # runs drawn off the page: no reader sees them, so none may be cited
    box = _page_box(page)

    def visit(text, cm, tm, font, size):
        if not text.strip():
            return
        x, y = tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        if box and not (box[0] - OFF_PAGE <= x <= box[2] + OFF_PAGE and box[1] - OFF_PAGE <= y <= box[3] + OFF_PAGE):
            unseen.append(text.strip())
        else:
            runs.append((text, size * abs(tm[3] * cm[3]) or size, tm[5] * cm[3] + cm[5]))

    text = page.extract_text(visitor_text=visit, visitor_operand_before=WordBreaks(page)) or ""
    # Only a few hidden lines, each a line of its own, on a page without forms: a page mostly
    # "off" itself has positions pypdf misread, and pypdf places a form's text without the
    # form's own matrix; a run sharing a line with seen text stays.
    for line in unseen if unseen and len(unseen) < len(runs) and not _draws_forms(page) else []:
        text = re.sub(r"(?m)^[ \t]*" + re.escape(line) + r"[ \t]*(\n|$)", "", text, count=1)
    for (before, size, base), (raised, small, top) in zip(runs, runs[1:]):
        if _EXPONENT.fullmatch(raised) and _BASE.search(before) and small <= EXPONENT_SIZE * size and top > base:
            tail, power = before[-12:], raised.strip()
            text = re.sub(re.escape(tail) + r"\s?" + re.escape(power), lambda _: f"{tail}^{power}", text, count=1)
    return footnotes_aside(text, runs)


# A footnote is set at most this share of the body's type size, after a raised mark ("2", "*").
FOOTNOTE_SIZE = 0.9
_MARK = re.compile(r"\s*(?:\d{1,2}|[*\u2020\u2021\u00a7])\s*")
# A sentence ends here; one ending with ":" goes on over the page (into code or a list).
_ENDED = re.compile(r"[.!?][\"')\]]*$")


def footnotes_aside(text: str, runs: list[tuple[str, float, float]]) -> str:
    """The text with the footnotes at the page's foot (after the body's last run, in smaller
    type, opening with a raised mark) moved before the body's last sentence when the page break
    cuts that sentence: chunking joins lines with spaces, and the cut sentence would run on into
    the note ("... is fitted via 2Alternatively, ...") instead of into the next page."""
    sizes: Counter[float] = Counter()
    for run, size, _ in runs:
        sizes[round(size, 1)] += len(run.strip())
    body = max(sizes, key=sizes.get, default=0.0)
    foot = len(runs)
    while foot and (runs[foot - 1][1] <= FOOTNOTE_SIZE * body or runs[foot - 1][0].strip().isdigit()):
        foot -= 1  # a page number may follow the notes
    for (mark, _, raised), (note, _, base) in zip(runs[foot:], runs[foot + 1:]):
        if _MARK.fullmatch(mark) and raised > base and note.strip():
            found = list(re.finditer(re.escape(mark.strip()) + r"[ \t]?" + re.escape(note.strip()[:20]), text))
            if found:
                first = found[-1].start()
                break
    else:
        return text
    page, notes = text[:first].rstrip(), text[first:].rstrip()
    number = re.search(r"(?:\n[ \t]*\d+[ \t]*)+$", notes)  # a page number stays last
    tail = number.group(0) if number else ""
    if not page or _ENDED.search(page):
        return text
    cut = sentence_spans(page)[-1][0]
    return f"{page[:cut]}{notes[:len(notes) - len(tail)]}\n{page[cut:]}{tail}"


def _page_box(page) -> tuple[float, ...] | None:
    """The page's box (left, bottom, right, top); None when the PDF gives none that can be read."""
    try:
        return tuple(float(v) for v in page.mediabox)
    except Exception:  # noqa: BLE001 - pypdf raises ValueError, KeyError...: the text is still read
        return None


def _draws_forms(page) -> bool:
    """Does the page draw a form XObject (whose text pypdf places without the form's matrix)?"""
    try:
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        return any(x.get_object().get("/Subtype") == "/Form" for x in xobjects.values())
    except Exception:  # noqa: BLE001 - a damaged resource dictionary: keep every line
        return True


def strip_running_lines(pages: list[str], edge: int = 2, printed: list[str] | None = None) -> list[str]:
    """Drop running heads, footers and page numbers: lines within `edge` lines of a page's top or
    bottom that repeat (digits ignored) on a third of the pages, or, with a page number at one end,
    on a third of the pages they run over (a chapter's head, "Chapter 5: MPFR Interface 15"), unless
    in the body of those pages (rows of a table); with `printed` (each page's printed number), a
    page's own number alone on its first or last line; and margin line numbers. Left in, they glue
    themselves to sentences ("one of: 41.") and repeat in every chunk."""
    pages = [_without_line_numbers(page) for page in pages]
    if printed:
        shift = _number_shift(pages)
        pages = [_without_own_number(page, {label, str(n - shift)}) for n, (page, label) in enumerate(zip(pages, printed), 1)]
    if len(pages) < 3:
        return pages

    def depth(lines: list[str]) -> int:
        # A page needs a body between its edges, so short pages have shallower edges.
        return min(edge, (len(lines) - 1) // 2)

    split = [page.split("\n") for page in pages]
    keys = [[_edge_keys(ln) for ln in lines] for lines in split]  # read once, used twice
    seen: dict[str, list[int]] = {}  # each edge line's keys: the pages it is on
    for number, (lines, their) in enumerate(zip(split, keys)):
        d = depth(lines)
        # No length limit: a wiki's printout heads pages with a 105-character address line.
        for k in {k for n, ln in enumerate(lines) if d and ln.strip() and not d <= n < len(lines) - d for k in their[n]}:
            seen.setdefault(k, []).append(number)
    running = {k for k, on in seen.items() if _running(k, on, len(pages))}
    cleaned = []
    for lines, their in zip(split, keys):
        d = depth(lines)
        here = running - {k for ks in their[d:-d] for k in ks} if d else set()
        if here:
            lines = [ln for n, ln in enumerate(lines) if d <= n < len(lines) - d or not their[n] & here]
        cleaned.append("\n".join(lines))
    return cleaned


# Margin line numbers (a specification's) come out as lines that each hold one number, one more
# than the line before: this many in a row are numbering, not text.
LINE_NUMBER_RUN = 5


def _without_line_numbers(page: str) -> str:
    lines, drop, start = page.split("\n"), set(), 0
    for n in range(1, len(lines) + 1):
        if n < len(lines) and lines[n].strip().isdecimal() and lines[n - 1].strip().isdecimal() \
                and int(lines[n]) == int(lines[n - 1]) + 1:
            continue  # the run goes on
        if n - start >= LINE_NUMBER_RUN:
            drop.update(range(start, n))
        start = n
    return "\n".join(line for n, line in enumerate(lines) if n not in drop) if drop else page


# A page number at either end of a line: "Chapter 5: MPFR Interface 15", "16 Chapter 4. Resources".
_EDGE_NUMBER = re.compile(r"^\d+\s+|\s+\d+\.?$")


def _edge_keys(line: str) -> set[str]:
    """A line's key, digits ignored, and with a page number at one end, its key less that number
    ("§"): "1.10 Migration to 2.1.0 9" and "1.20 Migration to 2.21.0 11" are two headings."""
    text = line.strip().lower()
    return {re.sub(r"\d+", "#", text)} | ({"\u00a7" + _EDGE_NUMBER.sub("", text)} if _EDGE_NUMBER.search(text) else set())


def _running(key: str, on: list[int], n_pages: int) -> bool:
    """A third, not a half: a book's running heads alternate (title, then authors or chapter), and
    a chapter's head (a "§" key) runs over its own pages: a third of those from first to last."""
    stretch = on[-1] - on[0] + 1 if key.startswith("\u00a7") else n_pages
    return len(on) >= max(3, stretch / 3)


def _number_shift(pages: list[str], edge: int = 2) -> int:
    """How far the printed page numbers run behind the pages' positions (1 when the title page
    is unnumbered): the difference that a number on a page's edge lines shows most often, if on
    at least a third of the pages; else 0."""
    shifts: dict[int, int] = {}
    for n, page in enumerate(pages, start=1):
        lines = [ln for ln in page.split("\n") if ln.strip()]
        for shift in {n - int(d) for ln in lines[:edge] + lines[-edge:] for d in re.findall(r"\b\d{1,4}\b", ln)}:
            shifts[shift] = shifts.get(shift, 0) + 1
    best = max(shifts, key=shifts.get, default=0)
    return best if shifts.get(best, 0) >= max(3, len(pages) / 3) else 0


def _without_own_number(page: str, numbers: set[str]) -> str:
    lines = page.rstrip("\n").split("\n")
    for end in (-1, 0):
        if len(lines) > 1 and lines[end].strip() in numbers:
            lines.pop(end)
    return "\n".join(lines)


# A section number ("3.2", "A.3.1") and words, with no page number at the end (a contents line):
# a heading whatever ends the line before it (a command, a table row, "... (see above.)").
_SECTION = re.compile(r"([A-Z]\.)?\d+(\.\d+)+\.?\s+\D.*(?<!\d)$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022\u2013]|\(?[0-9a-z]{1,2}[.)])\s+\S")


def mark_headings(text: str) -> str:
    """End heading and list-item lines with a full stop. Chunking joins lines with spaces, and
    a line without punctuation would then run into the next sentence ("Section 5: Governance
    Larkspur is led by ...", "- Sail: move four spaces - Buy: ..."). A heading is a line that
    starts a block (after a blank line, punctuation or another heading), starts with a capital
    or a digit, has no closing punctuation, and stands alone, or is short (or in Title Case)
    and comes before a capitalised line. A list item is a line that starts with a bullet or an
    item number and has no closing punctuation."""
    lines = text.split("\n")
    lengths = sorted(len(ln.strip()) for ln in lines if ln.strip())
    if not lengths:
        return text
    typical = lengths[len(lengths) // 2]
    marked: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        before = marked[-1].strip() if marked else ""  # already marked: a heading ends a block
        after = lines[i + 1].strip() if i + 1 < len(lines) else ""
        open_ended = bool(stripped) and stripped[-1] not in ".!?:;,-"  # "Berlin-" goes on in the next line
        is_heading = (
            open_ended and (stripped[0].isupper() or stripped[0].isdigit())
            and len(stripped.split()) <= 15
            and (not before or before[-1] in ".!?:" or _SECTION.match(stripped))
            and (not after or ((len(stripped) <= 0.6 * typical or is_title_case(stripped))
                               and (after[0].isupper() or after[0].isdigit())))
        )
        is_list_item = open_ended and bool(_LIST_ITEM.match(stripped)) and (
            not after or after[0].isupper() or after[0].isdigit() or _LIST_ITEM.match(after))
        marked.append(line.rstrip() + "." if is_heading or is_list_item else line)
    return "\n".join(marked)


# Measured on 21 PDFs with spaces (EVALUATION.md): at most 24% of their letters sit in words
# this long (euro.pdf, a manual full of macro names; most under 10%); on two that lost their
# spaces, 55% (a reference card glued in part) and 84%.
GLUED_WORD = 15
GLUED_SHARE = 0.4


def glued_share(pages: list[str]) -> float:
    """The share of the text's ASCII letters that sit in "words" over GLUED_WORD characters
    long. Counting ASCII letters only keeps scripts written without spaces (Chinese, Japanese,
    Thai) from looking glued."""
    letters = glued = 0
    for word in " ".join(pages).split():
        count = sum(ch.isascii() and ch.isalpha() for ch in word)
        letters += count
        glued += count if len(word) > GLUED_WORD else 0
    return glued / letters if letters else 0.0


def is_glued(pages: list[str]) -> bool:
    """Has the text lost the spaces between its words (many letters in overlong "words")?"""
    return glued_share(pages) > GLUED_SHARE


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    path = args[0] if args else REPO_ROOT / "data" / "sample_report_pages.txt"
    raw = Path(path).read_bytes()
    if b"%PDF-" in raw[:1024]:
        raise RAGError(f"{path} is a PDF and page_layout.py reads text; run python code/pdf_loader.py "
                       f"{path} (it reads the PDF, its layout included, and warns about glued text)")
    text = raw.decode("utf-8", errors="replace")
    print(f"{path}: {glued_share([text]):.1%} of its letters in words over {GLUED_WORD} characters"
          f"{' (glued: the loader warns)' if is_glued([text]) else ''}")
    for line, marked in zip(text.split("\n"), mark_headings(text).split("\n")):
        if marked != line:
            print(f"  heading or list item: {marked}")


if __name__ == "__main__":
    run_cli(main)
