"""Step 1, words: where a PDF page sets its words apart by gaps, not spaces.  [provided]

Many PDFs draw no space character between words: the next word is simply drawn further on,
by a gap inside a TJ array or by moving the pen (Td) to the next word, often in another font
(a link, a command name in typewriter type). pypdf writes a space only for a gap about half the
font's space wide, and takes that width from the font's character 32 even where that is no
space: in TeX's T1-encoded fonts it is a visible-space glyph half an em wide, in XeTeX's subset
fonts another glyph. So words ran together ("thedebian-keyring"). `WordBreaks(page)` is pypdf's
visitor before each operator: it reads a gap of a tenth of an em or more as a word break, as
pdftotext does, and rewrites the operands so that pypdf's own rule writes the space.

Run alone:  python code/word_breaks.py [FILE.pdf [PAGE]]    (a page's text; the sample report's first page by default)
"""

from __future__ import annotations

import logging
import sys

from cli import run_cli
from config import REPO_ROOT, RAGError

# A gap of a tenth of an em (in thousandths of an em) starts a new word in any font, as in
# pdftotext (xpdf and poppler's TextOutputDev.cc, minWordBreakSpace 0.1). Of the gaps between two
# strings of a TJ array in the first four pages of 589 real PDFs, 26% are under 0.06 em (kerns),
# 73% over 0.14 em (word and thin spaces), 0.35% between.
WORD_GAP = 100
# Wider than the space of any font as pypdf reads it, so its own rule writes the space.
_FAR = 100_000
# Two runs whose baselines are closer than this share of an em are on one line.
SAME_LINE = 0.3


def spaced_gaps(items: list) -> None:
    """A TJ array's gap of WORD_GAP or more before a string becomes a gap wide enough for pypdf's
    own space rule and a step back by as much: pypdf writes the space, and the next glyph stays
    where the PDF puts it. Rewritten in place; a second reading leaves the array as it is."""
    spaced = []
    for i, item in enumerate(items):
        before_string = i < len(items) - 1 and isinstance(items[i + 1], (str, bytes))
        if isinstance(item, (int, float)) and -item >= WORD_GAP and before_string:
            spaced += [float(item) - _FAR, float(_FAR)]
        else:
            spaced.append(item)
    if len(spaced) != len(items):
        items[:] = spaced


def font_widths(font) -> tuple[list[float] | dict[int, float], float, int] | None:
    """A font's glyph widths (thousandths of an em) by character code, the width of a code it
    does not list, and the bytes per code: from /Widths of a simple font, or /W of a Type0 font
    with two-byte identity codes; None for any other (its gaps are left to pypdf)."""
    try:
        font = font.get_object()
        if font.get("/Subtype") == "/Type0":
            return _cid_widths(font) if font.get("/Encoding") == "/Identity-H" else None
        if "/Widths" not in font:
            return None
        first = int(font.get("/FirstChar", 0))
        descriptor = font["/FontDescriptor"].get_object() if "/FontDescriptor" in font else {}
        missing = float(descriptor.get("/MissingWidth", 0))
        table = [missing] * 256  # a list, not a dict: summing a string's widths is the loader's hot loop
        for n, w in enumerate(font["/Widths"].get_object()):
            if 0 <= first + n < 256:
                table[first + n] = float(w)
        return table, missing, 1
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # a damaged font: pypdf's rule alone
        return None


def _cid_widths(font) -> tuple[dict[int, float], float, int]:
    cid = font["/DescendantFonts"][0].get_object()
    spec, widths, i = [item.get_object() for item in cid.get("/W") or []], {}, 0
    while i + 1 < len(spec):  # "c [w1 w2 ...]" or "c_first c_last w"
        if isinstance(spec[i + 1], list):
            widths.update({int(spec[i]) + n: float(w) for n, w in enumerate(spec[i + 1])})
            i += 2
        else:
            widths.update(dict.fromkeys(range(int(spec[i]), int(spec[i + 1]) + 1), float(spec[i + 2])))
            i += 3
    return widths, float(cid.get("/DW", 1000)), 2


def _codes(string) -> bytes:
    raw = getattr(string, "original_bytes", None)
    return raw if raw is not None else string if isinstance(string, bytes) else str(string).encode("latin-1", "replace")


class WordBreaks:
    """pypdf's `visitor_operand_before` for one page: follows the pen from string to string (the
    text matrix pypdf hands over is where the last Td or Tm put it, not where the last string
    ended), and where the pen moved on by WORD_GAP or more on the same line, or back to more than
    an em before the last string began, lets pypdf write a space (a leading gap before the next
    TJ's first string)."""

    def __init__(self, page):
        try:
            self.fonts = page["/Resources"]["/Font"].get_object()
        except (KeyError, TypeError, AttributeError):
            self.fonts = {}
        self.widths: dict = {}
        self.state = (None, 0.0, 0.0, 0.0, 1.0)  # font widths, size, Tc, Tw, horizontal scale
        self.saved: list = []
        self.end = None  # (x, y, em, last code was a space, start x) of the last string's end, device space
        self.moved = True

    def __call__(self, operator, operands, cm, tm) -> None:
        try:
            self._follow(operator, operands, cm, tm)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError):
            self.state, self.end = (None, 0.0, 0.0, 0.0, 1.0), None  # a damaged operand: pypdf's rule alone

    def _follow(self, operator, operands, cm, tm) -> None:
        font, size, tc, tw, th = self.state
        if operator == b"Tf" and len(operands) >= 2:
            name = operands[0]
            if name not in self.widths:
                self.widths[name] = font_widths(self.fonts[name]) if name in self.fonts else None
            self.state = (self.widths[name], float(operands[1]), tc, tw, th)
        elif operator in (b"Tc", b"Tw", b"Tz") and operands:
            value = float(operands[0])
            self.state = (font, size, value if operator == b"Tc" else tc, value if operator == b"Tw" else tw,
                          value / 100 if operator == b"Tz" else th)
        elif operator in (b"q", b"Q"):
            if operator == b"q":
                self.saved.append(self.state)
            elif self.saved:
                self.state = self.saved.pop()
        elif operator in (b"BT", b"Td", b"TD", b"Tm", b"T*"):
            self.moved = True
        elif operator in (b"'", b'"'):
            self.end = None
        elif operator in (b"TJ", b"Tj") and operands:
            items = operands[0] if operator == b"TJ" and isinstance(operands[0], list) else [operands[0]]
            if operator == b"TJ":
                spaced_gaps(items)
            self._show(items, cm, tm, operator == b"TJ")

    def _show(self, items: list, cm, tm, can_space: bool) -> None:
        font, size, tc, tw, th = self.state
        moved, self.moved = self.moved, False
        scale = tm[0] * cm[0]
        if font is None or tm[1] or tm[2] or cm[1] or cm[2] or scale <= 0:
            self.end = None  # no widths, or turned text: its gaps are left to pypdf
            return
        if moved:
            x, y = tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        elif self.end:
            x, y = self.end[0], self.end[1]
        else:
            return  # the pen's place is unknown (after a string this reading could not measure) until it moves
        em = size * scale
        texts = [code for code in (_codes(item) for item in items if isinstance(item, (str, bytes))) if code]
        spaced_before = items[:1] == [float(-_FAR)]  # by an earlier reading of the same page
        starts_spaced = font[2] == 1 and bool(texts) and texts[0][:1] == b" "
        if can_space and moved and self.end and not spaced_before and not starts_spaced and self._word_break(x, y, em):
            items[:0] = [float(-_FAR), float(_FAR)]
        ends_spaced = font[2] == 1 and bool(texts) and texts[-1][-1:] == b" "
        self.end = (x + self._advance(items) * scale, y, em, ends_spaced, x)

    def _word_break(self, x: float, y: float, em: float) -> bool:
        """On the same line, a gap of WORD_GAP or more after the last string (which did not end in
        a space), or a start more than an em before the last string's own (a label set flush
        right, then the line's text)."""
        end_x, end_y, end_em, spaced, start_x = self.end
        unit = max(em, end_em)
        apart = (x - end_x) * 1000 >= WORD_GAP * unit or x < start_x - unit
        return abs(y - end_y) < SAME_LINE * unit and apart and not spaced

    def _advance(self, items: list) -> float:
        """How far the strings and gaps move the pen, in text space (PDF 32000-1, 9.4.4)."""
        (widths, missing, code_bytes), size, tc, tw, th = self.state
        advance = 0.0
        for item in items:
            if isinstance(item, (int, float)):
                advance -= float(item) / 1000 * size * th
                continue
            codes = _codes(item)
            if code_bytes == 1:
                total, spaces = sum(widths[code] for code in codes), codes.count(32)  # Tw applies to byte 32 only
            else:
                total = sum(widths.get(int.from_bytes(codes[k:k + 2], "big"), missing) for k in range(0, len(codes) - 1, 2))
                spaces = 0
            advance += (total / 1000 * size + len(codes) // code_bytes * tc + spaces * tw) * th
        return advance


def main(argv: list[str] | None = None) -> None:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    args = (sys.argv[1:] if argv is None else argv) or [str(REPO_ROOT / "data" / "sample_report.pdf")]
    if len(args) > 2 or (len(args) == 2 and not args[1].isdigit()):
        raise RAGError("give a PDF and, optionally, a page number: python code/word_breaks.py [FILE.pdf [PAGE]]")
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # a damaged file is the one line below
    try:
        pages = PdfReader(args[0]).pages
    except (OSError, PdfReadError) as exc:
        raise RAGError(f"{args[0]}: cannot be read as a PDF ({exc}); give a PDF file") from None
    number = int(args[1]) if len(args) == 2 else 1
    if not 1 <= number <= len(pages):
        raise RAGError(f"{args[0]} has pages 1 to {len(pages)}; give one of them")
    page = pages[number - 1]
    print(page.extract_text(visitor_operand_before=WordBreaks(page)))


if __name__ == "__main__":
    run_cli(main)
