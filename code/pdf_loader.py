"""Step 1: turn a PDF into clean text, page by page.  [provided]

`load_pdf(path)` returns the whole text; `load_pdf_pages(path)` one string per page (page 1
first), so chunks and citations know their page; `read_pdf(path)` adds each page's printed
number (p.140 may print "124"). Every way a file can be unusable is a one-line `PDFLoadError`
naming the fix: missing, not a PDF, empty, too large or too many pages, encrypted, damaged or
truncated, without pages, blank, or image-only (needs OCR); text that lost its spaces is a warning.

PDF text is untrusted: `clean_text` also removes what could act on a terminal (control and
escape characters), forge a citation (`[c0]` becomes `(c0)`) or close the prompt's
`<context>` block, so nothing a document says can pose as the pipeline's own markup.

`SAMPLE_PAGES` / `SAMPLE_DOC`: a short fictional quarterly report (data/sample_report_pages.txt;
`SAMPLE_PDF` is it as a real PDF), so the whole pipeline and its tests run with no file of yours.

Run alone:  python code/pdf_loader.py [PDF]    (prints page count, characters and a preview)
"""

from __future__ import annotations

import errno
import logging
import re
import stat
import sys
import unicodedata
from pathlib import Path

from citations import CITE, GROUPED
from cli import UNPRINTABLE, as_text, one_line, run_cli
from config import REPO_ROOT, RAGError, get_config
from page_layout import GLUED_WORD, is_glued, mark_headings, page_text, strip_running_lines
from textutils import tex_accents_joined, tex_font_codes_read


class PDFLoadError(RAGError):
    """The file cannot be turned into text; the message says why and what to do."""


# NUL, zero-width spaces/joiners, word joiner, soft hyphen and byte-order marks carry no text.
_INVISIBLE = dict.fromkeys(map(ord, "\x00\u200b\u200c\u200d\u2060\u00ad\ufeff"))
# Tags a prompt may use to fence the context ("<context> ... </context>").
_PROMPT_TAG = re.compile(r"<(?=\s*/?\s*(?:context|documents?|passages?|question|system|instructions?)\b)", re.I)
LONGEST_WORD = 100
# Scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar): a long run of them is text.
_UNSPACED = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0eff\u1780-\u17ff\u1000-\u109f]")
LONGEST_LABEL = 20  # a page label is a number or a short prefix and number ("A-12")


def neutralise(text: str) -> str:
    """Untrusted text made inert: no control characters (newlines and tabs are layout and
    stay), nothing undecodable, no citation markers, no prompt tags."""
    text = UNPRINTABLE.sub(" ", as_text(text))
    text = CITE.sub(lambda m: f"({m.group(1)})", GROUPED.sub(lambda m: f"({m.group(1)})", text))  # [c0, c1] too
    return _PROMPT_TAG.sub("\u2039", text)


def clean_text(text: str) -> str:
    """Undo the usual extraction artifacts while keeping line and paragraph structure."""
    text = tex_accents_joined(tex_font_codes_read(text))
    text = unicodedata.normalize("NFKC", text).translate(_INVISIBLE)
    # "explo-\nration" -> "exploration"; before a capital or a digit the hyphen is the word's own
    # ("Berlin-Brandenburg", "754-2019"); "mpfr_set_\ndefault_prec": Texinfo breaks names after a "_".
    text = re.sub(r"(\w)-[ \t]*\n[ \t]*(\w)", lambda m: m[1] + ("" if m[2].islower() else "-") + m[2], text)
    text = re.sub(r"([A-Za-z0-9]_)[ \t]*\n[ \t]*(?=\w)", r"\1", text)
    # Dot leaders of tables of contents (". . . . . 23") are layout, not text.
    text = re.sub(r"(?: ?\.){4,}", " ", text)
    # A "word" this long is data (base64, a hash dump), not language: its start only, lest it swamp the embedding.
    text = re.sub(rf"\S{{{LONGEST_WORD},}}", lambda m: m[0] if _UNSPACED.search(m[0]) else m[0][:LONGEST_WORD] + "\u2026", text)
    # Made inert after every join: "[fac-\nts:c0]" becomes a citation marker only when joined.
    text = re.sub(r"[^\S\n]+", " ", neutralise(text))
    return re.sub(r"\n{3,}", "\n\n", re.sub(r" *\n *", "\n", text)).strip()


def check_file(path: Path, max_mb: float) -> None:
    """Refuse, before reading it, a path that is missing, a folder, empty, too large or not a PDF."""
    try:
        info = path.stat()
    except OSError as exc:
        why = {errno.ELOOP: "a symbolic link loop; point the link at a PDF",
               errno.ENAMETOOLONG: "the name is longer than the file system allows; shorten it",
               errno.EACCES: "cannot reach it (permission denied); check its folder's permissions"}
        raise PDFLoadError(f"{str(path)[:200]}: " + why.get(exc.errno, "file not found; check the path (relative "
                                                             "paths start from the current folder)")) from None
    if stat.S_ISDIR(info.st_mode):
        raise PDFLoadError(f"{path} is a folder; pass a PDF file, or a folder to rag.py")
    if not stat.S_ISREG(info.st_mode):  # reading a pipe or a device could block or never end
        raise PDFLoadError(f"{path}: not a regular file (a pipe, socket or device); pass a PDF file")
    if info.st_size == 0:
        raise PDFLoadError(f"{path}: the file is empty (0 bytes); re-download or re-export it")
    if info.st_size > max_mb * 1024 * 1024:
        raise PDFLoadError(f"{path}: {info.st_size / 1024 / 1024:.3g} MB is over the {max_mb:g} MB limit; "
                           f"split the PDF or raise RAG_MAX_PDF_MB")
    try:
        with open(path, "rb") as fh:
            head = fh.read(1024)  # the PDF spec allows junk before the header, within the first kilobyte
    except OSError as exc:  # no permission to read it
        raise PDFLoadError(f"{path}: cannot read it ({exc.strerror or exc}); check its permissions") from None
    if head.startswith(b"\x1f\x8b"):  # gzip's magic number: Debian ships many manuals as .pdf.gz
        raise PDFLoadError(f"{path}: gzip-compressed, not a PDF yet; run gunzip -k {path} and pass the .pdf it writes")
    if b"%PDF-" not in head:
        raise PDFLoadError(f"{path}: not a PDF (no %PDF- header); pass a .pdf file, or export the document to PDF first")


# pypdf reports through logging; the verdicts here are ours, so its messages never reach the
# terminal (without a handler of its own, Python would print them to stderr as a "last resort").
logging.getLogger("pypdf").addHandler(logging.NullHandler())
logging.getLogger("pypdf").propagate = False


class _Complaints(logging.Handler):
    """Collects what pypdf reports while one page is read: a damaged content stream is read
    as empty text, and the user should hear about it."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def _unreadable(page) -> bool:
    """Does the page point at content that is missing or is no content stream?"""
    if "/Contents" not in page:
        return False  # a blank page
    try:
        return page.get_contents() is None
    except Exception:  # noqa: BLE001 - whatever pypdf raises, the content cannot be read
        return True


def form_values(page) -> str:
    """The filled-in form fields of a page, a "name: value" line each ("Member number: LV-20931",
    a checkbox "yes" or "no"): a viewer draws them from the form, so the page's text lacks them."""
    lines = []
    try:
        for widget in (a.get_object() for a in page.get("/Annots") or []):
            field = widget if "/T" in widget or "/Parent" not in widget else widget["/Parent"].get_object()
            value = field.get("/V")
            if widget.get("/Subtype") != "/Widget" or value in (None, ""):
                continue
            value = {"/Yes": "yes", "/On": "yes", "/Off": "no"}.get(str(value), value)
            value = ", ".join(map(str, value)) if isinstance(value, list) else str(value).lstrip("/")
            lines.append(f"{str(field.get('/TU') or field.get('/T') or 'field').replace('_', ' ')}: {value}")
    except Exception:  # noqa: BLE001 - a damaged form costs its values, not the page
        return ""
    return "\n".join(dict.fromkeys(lines))


def _read_pages(reader, path: Path, on_page) -> tuple[list[str], list[int]]:
    """The pages' text, and the numbers of the pages whose content is damaged (read as empty)."""
    complaints = _Complaints()
    logger = logging.getLogger("pypdf")
    logger.addHandler(complaints)
    pages, damaged = [], []
    try:
        for number, page in enumerate(reader.pages, start=1):
            before = complaints.count
            text = clean_text(page_text(page) + "\n\n" + form_values(page))
            if not text and (complaints.count > before or _unreadable(page)):
                damaged.append(number)
            pages.append(text)
            if on_page:
                on_page(len(pages), len(reader.pages))
    finally:
        logger.removeHandler(complaints)
    return pages, damaged


def load_pdf_pages(path: str | Path, max_mb: float | None = None, on_page=None) -> list[str]:
    """One cleaned string per page; pages with no text are kept as "" so numbering stays right.
    `on_page(done, total)` is called after each page (rag.py drives a progress bar with it)."""
    return read_pdf(path, max_mb, on_page)[0]


def read_pdf(path: str | Path, max_mb: float | None = None, on_page=None) -> tuple[list[str], list[str]]:
    """`load_pdf_pages`, and each page's printed number: its /PageLabels label ("iv", "124"),
    or its position where the PDF gives none. A citation of p.140 is then "printed 124"."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, LimitReachedError, PdfReadError

    path = Path(path)
    check_file(path, get_config().max_pdf_mb if max_mb is None else max_mb)
    locked = (f"{path}: the PDF is password-protected; decrypt it first "
              f"(e.g. `qpdf --decrypt --password=PW in.pdf out.pdf`)")
    try:
        reader = PdfReader(path)
        # Many PDFs are encrypted with an empty user password (owner restrictions only).
        if reader.is_encrypted and not reader.decrypt(""):
            raise PDFLoadError(locked)
        if (count := len(reader.pages)) > (limit := get_config().max_pages):  # before any page is read
            raise PDFLoadError(f"{path}: the PDF has {count} pages, over RAG_MAX_PAGES={limit}; split it or raise it")
        pages, damaged = _read_pages(reader, path, on_page)
        labels = _labels(reader)
    except (FileNotDecryptedError, DependencyError, NotImplementedError) as exc:
        # pypdf raises these for a missing AES library, but also for an image codec it lacks
        # (JBIG2) or a filter it does not know: only the first is a locked file.
        raise PDFLoadError(locked if isinstance(exc, FileNotDecryptedError) or "crypt" in str(exc).lower() else
                           f"{path}: the PDF uses something the PDF reader cannot decode ({exc}); "
                           f"print or export it to a new PDF") from None
    except LimitReachedError as exc:
        raise PDFLoadError(f"{path}: the PDF exceeds a safety limit of the PDF reader ({exc}); "
                           f"it may be hostile: re-export or print it to a new PDF") from None
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, IndexError,
            RecursionError, OSError, AssertionError):
        raise PDFLoadError(f"{path}: the PDF is damaged or truncated and could not be read; "
                           f"re-download it or repair it (e.g. `qpdf in.pdf out.pdf`)") from None
    if not pages:
        raise PDFLoadError(f"{path}: the PDF has no pages; export the document again")
    pages = [mark_headings(page) for page in strip_running_lines(pages, printed=labels)]
    _judge(path, pages, damaged, reader)
    return pages, labels


def _judge(path: Path, pages: list[str], damaged: list[int], reader) -> None:
    """Refuse a PDF with no text at all, saying why; warn about damaged pages and lost spaces."""
    if not any(page.strip() for page in pages):
        if damaged:
            raise PDFLoadError(f"{path}: the PDF is damaged: the content of page(s) {_pages(damaged)} "
                               f"cannot be read; repair it (e.g. `qpdf in.pdf out.pdf`) or export it again")
        if all(map(_blank, reader.pages)):
            raise PDFLoadError(f"{path}: its {len(pages)} page(s) are blank (nothing is drawn on "
                               f"them); export the document again")
        raise PDFLoadError(f"{path}: no extractable text in {len(pages)} page(s): they hold images or drawings "
                           f"but no text layer (a scan, or text turned into outlines); run OCR first, e.g. "
                           f"`ocrmypdf in.pdf out.pdf`")
    for number in damaged:
        print(one_line(f"warning: {path} p.{number}: its content is damaged and was read as empty"), file=sys.stderr)
    if is_glued(pages):
        print(glued_warning(path), file=sys.stderr)


def glued_warning(path: Path) -> str:
    """The warning for text that lost its spaces as read (pdftotext may still space it; documents.py repeats it)."""
    return one_line(f"warning: {path}: much of its text, as read, is in 'words' over {GLUED_WORD} characters "
                    f"long: it has lost the spaces between words and answers from it will be poor; give it a "
                    f"new text layer, e.g. `ocrmypdf --force-ocr in.pdf out.pdf`")


def _labels(reader) -> list[str]:
    """Each page's label, made inert (it is the PDF's text); positions when there are none."""
    try:
        labels = [" ".join(neutralise(label).split())[:LONGEST_LABEL] for label in reader.page_labels]
    except Exception:  # noqa: BLE001 - a broken label tree costs the labels, not the document
        labels = []
    return labels if len(labels) == len(reader.pages) else [str(n) for n in range(1, len(reader.pages) + 1)]


# Operators that put something on a page (paint, text, image, form); a stream of state changes
# only ("q 1 0 0 1 0 0 cm BT /F1 12 Tf ET Q", a tool's empty page) draws nothing.
_DRAWING = {b"f", b"F", b"f*", b"S", b"s", b"B", b"B*", b"b", b"b*", b"sh", b"Tj", b"TJ", b"'", b'"', b"Do",
            b"INLINE IMAGE"}


def _blank(page) -> bool:
    """Is nothing drawn on the page (no content, or a content stream that draws nothing)?"""
    from pypdf.generic import ContentStream
    try:
        contents = page.get_contents()
        return contents is None or not any(op in _DRAWING for _, op in ContentStream(contents, page.pdf).operations)
    except Exception:  # noqa: BLE001 - unreadable content is damage, which is not blankness
        return False


def _pages(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers[:5])) + (f" and {len(numbers) - 5} more" if len(numbers) > 5 else "")


def load_pdf(path: str) -> str:
    """Parse a PDF to text: its pages' cleaned text joined by blank lines."""
    return "\n\n".join(page for page in load_pdf_pages(path) if page)


# ------------------------------------------------------------------------------ the sample

SAMPLE_PDF = REPO_ROOT / "data" / "sample_report.pdf"
SAMPLE_TEXT = REPO_ROOT / "data" / "sample_report_pages.txt"
PAGE_SEPARATOR = "=== PAGE ==="
# The spec's example facts (Q3 revenue 4.2M, up 8% YoY; operating margin 21%; Berlin office
# opened in July) among many others, one string per page, as the loader would return them.
SAMPLE_PAGES: list[str] = [mark_headings(clean_text(page)) for page in
                           SAMPLE_TEXT.read_text(encoding="utf-8").split(PAGE_SEPARATOR)]
SAMPLE_DOC = "\n\n".join(SAMPLE_PAGES)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    pages = load_pdf_pages(args[0]) if args else SAMPLE_PAGES
    name = args[0] if args else f"SAMPLE_DOC ({SAMPLE_TEXT.relative_to(REPO_ROOT)})"
    print(f"{name}: {len(pages)} pages, {sum(len(p) for p in pages)} characters, "
          f"{sum(len(p.split()) for p in pages)} words")
    for number, page in enumerate(pages[:3], start=1):
        preview = " ".join(page.split()[:30])
        print(f"  p.{number}: {preview}{' ...' if len(page.split()) > 30 else ''}")


if __name__ == "__main__":
    run_cli(main)
