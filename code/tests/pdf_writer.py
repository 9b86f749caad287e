"""A tiny PDF writer for the tests, the benchmark and the sample set.  [provided, test helper]

Writes real, standards-conforming PDF files (text in the built-in Helvetica font, A4 pages) so
the loader, the tests and the benchmark read genuine PDFs parsed by pypdf, with no extra
dependency. Each entry of `pages` starts a new page; text that does not fit continues on the
next one. It also writes the awkward files a loader must reject (image-only, like a scan;
blank; encrypted; truncated), a PDF that prints its own page numbers (/PageLabels), a
filled-in form and lines whose words are set apart by gaps rather than spaces.

Run alone:  python code/tests/pdf_writer.py OUT.pdf    (writes a two-page demo PDF)
"""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # code/, when run alone
from cli import run_cli  # noqa: E402

_WIDTH, _HEIGHT, _MARGIN = 595, 842, 56
_FONT_SIZE, _LEADING, _WRAP = 11, 14, 88
_LINES_PER_PAGE = (_HEIGHT - 2 * _MARGIN) // _LEADING


def _escape(line: str) -> str:  # a bare CR in a PDF string would read as a newline
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").replace("\r", "\\r")


def _layout(pages: list[str]) -> list[list[str]]:
    """Wrap each page's paragraphs into lines; spill over onto extra pages when needed."""
    physical: list[list[str]] = []
    for page in pages:
        lines: list[str] = []
        for paragraph in page.split("\n\n"):
            # Lines are re-wrapped, except that a list item ("- ...") keeps its own line.
            for item in re.split(r"\n(?=\s*(?:[-*\u2022]|\d+[.)])\s)", paragraph):
                lines.extend(textwrap.wrap(" ".join(item.split()), _WRAP) or [""])
            lines.append("")
        lines = lines[:-1] if lines and lines[-1] == "" else lines
        for i in range(0, max(len(lines), 1), _LINES_PER_PAGE):
            physical.append(lines[i:i + _LINES_PER_PAGE])
    return physical


def _text_stream(lines: list[str]) -> bytes:
    ops = [f"BT /F1 {_FONT_SIZE} Tf {_LEADING} TL {_MARGIN} {_HEIGHT - _MARGIN} Td"]
    for line in lines:
        ops.append(f"({_escape(line)}) Tj T*")
    ops.append("ET")
    return "\n".join(ops).encode("latin-1", errors="replace")


_HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def _write(path: Path, streams: list[bytes], font: bytes = _HELVETICA) -> None:
    """Assemble catalog, page tree, font and one content stream per page, with a valid xref."""
    objects: list[bytes] = []
    n_pages = len(streams)
    page_ids = [4 + 2 * i for i in range(n_pages)]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    objects.append(font)
    for pid, stream in zip(page_ids, streams):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_WIDTH} {_HEIGHT}] "
                       f"/Resources << /Font << /F1 3 0 R >> >> /Contents {pid + 1} 0 R >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))


def write_pdf(path: str | Path, pages: list[str]) -> Path:
    """Write `pages` (plain text, blank line between paragraphs) as a text PDF."""
    path = Path(path)
    _write(path, [_text_stream(lines) for lines in _layout(pages)])
    return path


def write_font_codes_pdf(path: str | Path, line: str) -> Path:
    """One line of text written as raw font codes, byte for byte, with no line wrapping: the
    codes below 0x20 reach pypdf as they are, as in an older TeX PDF whose font has no Unicode map."""
    path = Path(path)
    _write(path, [_text_stream([line])])
    return path


def write_word_gaps_pdf(path: str | Path, words: list[str], gap: int = 317) -> Path:
    """One line whose words are set apart by gaps in a TJ array (`gap` thousandths of an em), not
    by spaces, in a font whose space pypdf reads as 0.838 em wide: as in a XeTeX PDF, whose subset
    font has no space and pypdf takes another glyph's width for it."""
    path = Path(path)
    shown = f" -{gap} ".join(f"({_escape(word)})" for word in words)
    stream = f"BT /F1 {_FONT_SIZE} Tf {_MARGIN} {_HEIGHT - _MARGIN} Td [{shown}] TJ ET".encode("latin-1")
    _write(path, [stream], _HELVETICA[:-2] + b"/FirstChar 32 /LastChar 32 /Widths [838] >>")
    return path


# Every glyph, character 32 included, half an em wide: TeX's T1 fonts, whose 32 is a visible space.
_HALF_EM_FONT = _HELVETICA[:-2] + b"/FirstChar 32 /LastChar 126 /Widths [" + b" ".join([b"500"] * 95) + b"] >>"


def write_moved_words_pdf(path: str | Path, words: list[str], gap: float = 0.2, kern: float = 0.04) -> Path:
    """One line whose words are drawn one by one: the pen moved on (Td) by `gap` em after each
    word, as TeX sets a word in another font (a link, a command name), except that the last two
    words are parted by a gap leading their TJ array after a colour change, and the first word is
    split in two by a move of `kern` em. Every glyph is half an em wide and so is character 32, as
    in TeX's T1 fonts, whose 32 is a visible space: pypdf then writes a space only past 0.25 em."""
    path = Path(path)
    size, half = _FONT_SIZE, _FONT_SIZE / 2
    head, tail = words[0][:len(words[0]) // 2], words[0][len(words[0]) // 2:]
    ops = [f"BT /F1 {size} Tf {_MARGIN} {_HEIGHT - _MARGIN} Td ({_escape(head)}) Tj",
           f"{len(head) * half + kern * size:.3f} 0 Td ({_escape(tail)}) Tj"]
    before = tail
    for word in words[1:-1]:
        ops.append(f"{len(before) * half + gap * size:.3f} 0 Td [({_escape(word)})] TJ")
        before = word
    ops.append(f"0 0 1 rg [{-gap * 1000:.0f} ({_escape(words[-1])})] TJ ET")
    _write(path, ["\n".join(ops).encode("latin-1")], _HALF_EM_FONT)
    return path


def write_label_first_pdf(path: str | Path, label: str, line: str) -> Path:
    """One line drawn label first: `label` set flush right, then the pen goes back to the left
    margin on the same baseline for `line`, as Texinfo sets "[Function]" beside a definition.
    Widths as in write_moved_words_pdf."""
    path = Path(path)
    ops = (f"BT /F1 {_FONT_SIZE} Tf {_WIDTH - _MARGIN - len(label) * _FONT_SIZE / 2:.3f} {_HEIGHT - _MARGIN} Td "
           f"[({_escape(label)})] TJ {-(_WIDTH - 2 * _MARGIN - len(label) * _FONT_SIZE / 2):.3f} 0 Td [({_escape(line)})] TJ ET")
    _write(path, [ops.encode("latin-1")], _HALF_EM_FONT)
    return path


def write_image_only_pdf(path: str | Path, n_pages: int = 1) -> Path:
    """A PDF whose pages hold only drawn shapes, like a scan: no extractable text."""
    path = Path(path)
    shapes = b"0.2 g 80 600 400 120 re f 0.6 g 80 400 300 80 re f"
    _write(path, [shapes] * n_pages)
    return path


def write_blank_pdf(path: str | Path, n_pages: int = 1, stream: bytes = b"") -> Path:
    """A PDF whose pages draw nothing: an empty content stream, or `stream` (state changes only)."""
    path = Path(path)
    _write(path, [stream] * n_pages)
    return path


def write_labelled_pdf(path: str | Path, pages: list[str], front_matter: int) -> Path:
    """A text PDF whose printed page numbers (/PageLabels) are i, ii, ... for the first
    `front_matter` pages and 1, 2, ... after them, as in a book."""
    from pypdf import PdfReader, PdfWriter

    path = Path(path)
    write_pdf(path, pages)
    writer = PdfWriter(clone_from=PdfReader(path))
    writer.set_page_label(0, front_matter - 1, style="/r")
    writer.set_page_label(front_matter, len(writer.pages) - 1, style="/D")
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def write_form_pdf(path: str | Path, text: str, fields: dict[str, str]) -> Path:
    """A one-page text PDF with filled-in form fields: a text field per entry of `fields`, a
    checkbox where the value is "/Yes" or "/Off" (a viewer draws them from the form)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, TextStringObject

    path = Path(path)
    write_pdf(path, [text])
    writer = PdfWriter(clone_from=PdfReader(path))
    widgets = ArrayObject()
    for n, (name, value) in enumerate(fields.items()):
        box = value in ("/Yes", "/Off")
        widget = writer.add_annotation(0, DictionaryObject({
            NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Widget"),
            NameObject("/FT"): NameObject("/Btn" if box else "/Tx"), NameObject("/T"): TextStringObject(name),
            NameObject("/V"): NameObject(value) if box else TextStringObject(value),
            NameObject("/Rect"): ArrayObject(FloatObject(v) for v in (300, 700 - 30 * n, 500, 720 - 30 * n))}))
        widgets.append(widget.indirect_reference)
    writer.root_object[NameObject("/AcroForm")] = DictionaryObject({NameObject("/Fields"): widgets})
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def write_encrypted_pdf(path: str | Path, pages: list[str], password: str = "secret") -> Path:
    """A text PDF that needs `password` to open."""
    from pypdf import PdfReader, PdfWriter

    path = Path(path)
    write_pdf(path, pages)
    writer = PdfWriter(clone_from=PdfReader(path))
    writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="AES-128")
    with open(path, "wb") as fh:
        writer.write(fh)
    return path


def write_truncated_pdf(path: str | Path, pages: list[str], keep: float = 0.4) -> Path:
    """A text PDF cut off after `keep` of its bytes, like an interrupted download."""
    path = Path(path)
    write_pdf(path, pages)
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    return path


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path("demo.pdf")
    write_pdf(out, ["Page one.\n\nQ3 revenue was 4.2M, up 8% YoY.", "Page two.\n\nThe Berlin office opened in July."])
    print(f"wrote {out} ({out.stat().st_size} bytes, 2 pages)")


if __name__ == "__main__":
    run_cli(main)
