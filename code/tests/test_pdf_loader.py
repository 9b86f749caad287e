"""pdf_loader.py (provided): real PDFs in, clean page text out, one clear error per bad file."""

import gzip

import pytest

from pdf_loader import SAMPLE_DOC, PDFLoadError, clean_text, load_pdf, load_pdf_pages
from pdf_writer import (write_blank_pdf, write_encrypted_pdf, write_font_codes_pdf, write_form_pdf, write_image_only_pdf,
                        write_label_first_pdf, write_moved_words_pdf, write_pdf, write_truncated_pdf,
                        write_word_gaps_pdf)
from textutils import split_sentences

PAGES = ["Q3 revenue was 4.2M, up 8% YoY.\n\nOperating margin was 21%.", "A Berlin office opened in July."]


def test_sample_doc_holds_the_spec_facts():
    for fact in ("Q3 revenue was 4.2M", "up 8% YoY", "operating margin was 21%", "Berlin office opened in July"):
        assert fact in " ".join(SAMPLE_DOC.split())


def test_pages_are_read_in_order(tmp_path):
    pages = load_pdf_pages(write_pdf(tmp_path / "r.pdf", PAGES))
    assert len(pages) == 2
    assert "4.2M" in pages[0] and "Berlin" in pages[1]
    assert "Berlin" in load_pdf(str(tmp_path / "r.pdf"))


def test_cleanup_joins_hyphenation_and_drops_invisible_characters():
    assert clean_text("explo-\nration  of\u200b the\x00 data") == "exploration of the data"
    assert clean_text("Berlin-\nBrandenburg") == "Berlin-Brandenburg", "a hyphen before a capital is the word's own"
    assert clean_text("IEEE 754-\n2019 and mpfr_set_\ndefault_prec or __init__\nmethods") == \
        "IEEE 754-2019 and mpfr_set_default_prec or __init__\nmethods", "an identifier broken after an underscore is joined"
    assert clean_text("Contents\n2 Revenue . . . . . . . 14\nWait... what") == "Contents\n2 Revenue 14\nWait... what"


@pytest.mark.parametrize("make, message", [
    (lambda p: p / "missing.pdf", "not found"),
    (lambda p: (p / "notes.pdf").write_text("just text") and p / "notes.pdf", "not a PDF"),
    (lambda p: (p / "empty.pdf").write_bytes(b"") or p / "empty.pdf", "empty"),
    # Debian ships many manuals as .pdf.gz (an outside tester's): say how to get the PDF out
    (lambda p: (p / "FAQ.pdf.gz").write_bytes(gzip.compress(write_pdf(p / "FAQ.pdf", PAGES).read_bytes()))
     and p / "FAQ.pdf.gz", "gzip-compressed.*gunzip"),
    (lambda p: write_encrypted_pdf(p / "locked.pdf", PAGES), "password"),
    (lambda p: write_truncated_pdf(p / "cut.pdf", PAGES * 20), "damaged or truncated"),
    (lambda p: write_image_only_pdf(p / "scan.pdf", 2), "OCR"),
    (lambda p: write_blank_pdf(p / "blank.pdf", 2), "2 page.s. are blank"),
    # an empty page as a PDF tool writes it: state changes, nothing drawn (an outside tester's)
    (lambda p: write_blank_pdf(p / "state.pdf", 1, b"q 1 0 0 1 0 0 cm BT /F1 12 Tf 14.4 TL ET Q"), "1 page.s. are blank"),
])
def test_bad_files_get_one_line_errors(tmp_path, make, message):
    with pytest.raises(PDFLoadError, match=message) as info:
        load_pdf_pages(make(tmp_path))
    assert "\n" not in str(info.value)


def test_text_that_lost_its_spaces_is_read_with_a_warning(tmp_path, capsys):
    words = "the package maintenance system is unique and particularly robust".split()
    glued = write_pdf(tmp_path / "glued.pdf", ["".join(words) + ".\n\n" + "".join(reversed(words)) + "."])
    assert "packagemaintenance" in load_pdf_pages(glued)[0]
    warning = capsys.readouterr().err
    assert "glued.pdf" in warning and "lost the spaces" in warning and "ocrmypdf" in warning, (
        f"expected a one-line warning naming the file, the lost spaces and a fix; stderr was {warning!r}")
    load_pdf_pages(write_pdf(tmp_path / "prose.pdf", PAGES))
    assert capsys.readouterr().err == "", "a PDF with ordinary words must load without a warning"


@pytest.mark.parametrize("gap", [317, 175])
def test_words_set_apart_by_gaps_are_read_as_words(tmp_path, capsys, gap):
    """XeTeX sets words apart by gaps, not spaces, in subset fonts that have no space, and pypdf
    misreads such a font's space width; it ran the words together (Debian's reference card:
    "Queryinstalledpackages"). A gap of a tenth of an em or more parts two words, as in pdftotext;
    0.175 em is a tight line's word space, in Debian's New Maintainers' Guide. A kern does not."""
    words = "Query installed packages and write the selections to a file".split()
    text = load_pdf_pages(write_word_gaps_pdf(tmp_path / "gaps.pdf", words, gap))[0]
    assert " ".join(words) in text, f"expected the words parted by gaps of {gap / 1000} em as words; got {text!r}"
    assert capsys.readouterr().err == "", "text read with its spaces must load without the glued-text warning"
    kerned = load_pdf_pages(write_word_gaps_pdf(tmp_path / "kerned.pdf", ["Selec", "tions"], 40))[0]
    assert "Selections" in kerned, f"a kern of 0.04 em inside a word must not part it; got {kerned!r}"


def test_words_the_pen_moves_apart_are_read_as_words(tmp_path):
    """TeX draws a word in another font (a link, a command name) by moving the pen to it, and
    pypdf spaces such a move only past half the width of the font's character 32, which in TeX's
    T1 fonts is a visible space half an em wide: an outside tester's Debian Developer's Reference
    read "by thedebian-keyring package maintainers". A word after a colour change may instead
    open its TJ array with the gap. A move of 0.2 em parts two words, as in pdftotext; one of
    0.04 em (a kern) does not."""
    words = "Selections are processed by the keyring maintainers".split()
    text = load_pdf_pages(write_moved_words_pdf(tmp_path / "moved.pdf", words))[0]
    assert " ".join(words) in text, f"expected the words the pen moved 0.2 em apart as words; got {text!r}"
    # A label set flush right first, then the line from the left margin (Texinfo's "[Function]").
    text = load_pdf_pages(write_label_first_pdf(tmp_path / "label.pdf", "[Function]", "int mpfr_init2 (mpfr_t x)"))[0]
    assert "[Function] int" in text, f"expected the label and the line it was drawn before as two words; got {text!r}"


def test_glued_text_is_told_apart_from_prose_urls_and_scripts_without_spaces():
    from page_layout import is_glued

    assert is_glued(["packagemaintenancesystemisunique and robust"]), "words run together are glued"
    assert not is_glued(["Operating margin was 21%, as the full report explains in its second part. "
                         "See https://example.org/reports/2024/q3.pdf"]), "one URL in prose is not glued text"
    assert not is_glued(["营业利润率为百分之二十一，柏林办事处于七月开业。"]), "a script written without spaces is not glued text"


def test_filled_form_fields_are_read_with_their_names(tmp_path):
    """A form's values are drawn from its fields, not from the page's text: pypdf's text alone
    gave "Member number:" with no number (an outside tester's form)."""
    form = write_form_pdf(tmp_path / "form.pdf", "Membership form.\n\nMember number:\n\nInsurance included:",
                          {"Member_number": "LV-20931", "insurance": "/Yes", "newsletter": "/Off", "notes": ""})
    lines = load_pdf_pages(form)[0].split("\n")
    for line in ("Member number: LV-20931", "insurance: yes", "newsletter: no"):
        assert line in lines, f"expected the line {line!r} among the page's lines {lines}"
    assert not any(line.startswith("notes") for line in lines), "an empty field says nothing"


def test_size_cap(tmp_path):
    path = write_pdf(tmp_path / "big.pdf", PAGES * 50)
    with pytest.raises(PDFLoadError, match="RAG_MAX_PDF_MB"):
        load_pdf_pages(path, max_mb=0.001)


def test_running_headers_footers_and_page_numbers_are_dropped(tmp_path):
    topics = ["revenue grew", "margins held", "Berlin opened", "hiring slowed", "risks rose"]
    pages = [f"Larkspur Quarterly Report\n\nThis page says {t}.\n\nIt ends on {t} too.\n\n{n}"
             for n, t in enumerate(topics, start=1)]
    read = load_pdf_pages(write_pdf(tmp_path / "framed.pdf", pages))
    assert read == [f"This page says {t}.\nIt ends on {t} too." for t in topics]


def test_running_heads_that_alternate_between_odd_and_even_pages_are_dropped(tmp_path):
    """A book's heads alternate: the title on even pages, the authors on odd ones, each on half
    the pages less the title page. Left in, "Achim Zeileis, Gabor Grothendieck 3" was quoted
    as an answer (an outside tester, zoo.pdf)."""
    topics = ["revenue grew", "margins held", "Berlin opened", "hiring slowed", "risks rose", "cash rose",
              "orders fell", "prices held"]
    heads = ["Larkspur Quarterly Report", "Annika Feldmann, Tobias Reinholt"]
    pages = ["Title page of the report.\n\nIt says nothing else."] + [
        f"{heads[n % 2]} {n}\n\nThis page says {t}.\n\nIt ends on {t} too." for n, t in enumerate(topics[1:], start=2)]
    read = load_pdf_pages(write_pdf(tmp_path / "book.pdf", pages))
    kept = [page for page in read[1:] if any(head in page for head in heads)]
    assert not kept, f"expected the alternating heads dropped; still there: {kept[:2]}"


def test_a_chapters_running_head_is_dropped_where_the_chapter_runs(tmp_path):
    """A manual heads its odd pages with the chapter and the page number ("Chapter 5: MPFR
    Interface 15"), so each head runs over its own chapter only, under a third of the book; left
    in, answers quoted it inside a sentence (an outside tester, the MPFR manual). Numbered
    section headings that differ only in their numbers ("1.10 Migration to 2.1.0") stay."""
    topics = [f"topic {word}" for word in "ab cd ef gh ij kl mn op qr st uv wx yz".split()]
    pages = []
    for n, t in enumerate(topics, start=1):
        head = (f"Chapter 1: Getting Started {n}" if n <= 5 else f"{n} Guide" if n % 2 == 0
                else f"1.{n} Migration to release 2.{n}.0")
        pages.append(f"{head}\n\nThis page says {t}.\n\nIt ends on {t} too." if n % 2 or n > 5
                     else f"This page says {t}.\n\nIt ends on {t} too.")
    read = load_pdf_pages(write_pdf(tmp_path / "manual.pdf", pages))
    assert not any("Getting Started" in page for page in read), f"expected the chapter's head dropped: {read[:3]}"
    kept = [n for n in (7, 9, 11, 13) if f"Migration to release 2.{n}.0" in read[n - 1]]
    assert kept == [7, 9, 11, 13], f"expected each numbered section heading kept; kept those of pages {kept}"


def test_a_running_head_longer_than_a_short_line_is_dropped_too(tmp_path):
    """A wiki's printout heads every other page with the date and the page's whole address, over
    100 characters; left in, answers began with it (an outside tester, the CD-HIT guide)."""
    head = ("Last update: 2017/05/01 17:50 cd-hit-user-guide "
            "http://weizhongli-lab.org/lab-wiki/doku.php?id=cd-hit-user-guide-page")
    topics = ["revenue grew", "margins held", "Berlin opened", "hiring slowed", "risks rose", "cash rose"]
    pages = [f"{head}\n\nThis page says {t}.\n\nIt ends on {t} too." for t in topics]
    read = load_pdf_pages(write_pdf(tmp_path / "wiki.pdf", pages))
    assert len(head) > 100 and read == [f"This page says {t}.\nIt ends on {t} too." for t in topics], (
        f"expected the {len(head)}-character running head dropped; got {read[0]!r}")


def test_headings_get_a_full_stop_so_chunks_cannot_glue_them_to_a_sentence():
    from pdf_loader import mark_headings

    page = ("Section 3: Operations and People\nOur Berlin office opened in July. It has\n"
            "Twenty staff and room for more.\nQuarterly Report: Overview And Financial Highlights Of The Year\n"
            "Revenue grew.")
    assert mark_headings(page).split("\n") == [
        "Section 3: Operations and People.", "Our Berlin office opened in July. It has",
        "Twenty staff and room for more.", "Quarterly Report: Overview And Financial Highlights Of The Year.",
        "Revenue grew."]


def test_a_numbered_section_heading_is_a_heading_whatever_ends_the_line_before():
    """A section number and Title Case words ("3.2 Termination Threshold") after a command line or
    a closing parenthesis: a fifteenth outside tester's heading ran into the next sentence, and
    the glued sentence's heading words won the answer. A line of a table of contents (a page
    number at its end) is not taken for one."""
    from pdf_loader import mark_headings

    page = ("For example:\n$ vega -Tps -seed=rand file.dot > file.ps\n3.2 Termination Threshold\n"
            "The solver stops when the change falls below 0.1.\nIt runs once (see above.)\nA.3.1 Tuned Libraries\n"
            "Several tuned libraries exist.\n$ vega -Tps big.dot\n3.3 Edge Lengths 12\nEdges have lengths.")
    assert mark_headings(page).split("\n") == [
        "For example:", "$ vega -Tps -seed=rand file.dot > file.ps", "3.2 Termination Threshold.",
        "The solver stops when the change falls below 0.1.", "It runs once (see above.)", "A.3.1 Tuned Libraries.",
        "Several tuned libraries exist.", "$ vega -Tps big.dot", "3.3 Edge Lengths 12", "Edges have lengths."]


def test_list_items_and_numbered_headings_become_their_own_sentences(tmp_path):
    page = ("1. Introduction\n\nOn your turn you may:\n- Sail: move up to four spaces\n"
            "- Buy: take one cube\n\nThen play passes to the left.")
    text = " ".join(load_pdf_pages(write_pdf(tmp_path / "rules.pdf", [page]))[0].split())
    assert split_sentences(text) == ["1. Introduction.", "On your turn you may:",
                                     "- Sail: move up to four spaces.", "- Buy: take one cube.",
                                     "Then play passes to the left."]


def test_tex_ligature_and_accent_codes_are_read_as_letters(tmp_path):
    # An older TeX PDF whose font has no Unicode map gives "speci\x0ced" (the fi ligature's code)
    # and "E\x13en" (the acute's code); they became spaces: "speci ed", "E en" (an outside tester).
    line = "The data is speci\x0ced in the \x0cle; it over\x0dows di\x0berently. By Niklas E\x13en and S\x7forensson, x \x15 y."
    text = " ".join(load_pdf(write_font_codes_pdf(tmp_path / "tex.pdf", line)).split())
    assert "specified in the file; it overflows differently" in text and "Niklas E\u00e9n and S\u00f6rensson" in text, \
        f"expected TeX's ligature and accent codes read as letters; got {text!r}"
    assert "x y." in text, f"a code standing alone (a math symbol, here >=) is no letter and no control character: {text!r}"


def test_cork_encoded_tex_ligature_codes_are_read_as_letters(tmp_path):
    # A TeX PDF in the newer T1 ("Cork") layout, bitmap fonts with no Unicode map, gives its
    # ligatures at 0x1B-0x1F: "scienti\x1cc" lost its "fi" and read "scienti c" (an outside
    # tester's Grace FAQ: "le" for "file", "tting" for "fitting"). There, 0x10/0x11 are quotes.
    line = "The scienti\x1cc data is in the \x1cle; a di\x1berent \x1davour of the o\x1ecial \x10con\x1cgure\x11 run."
    text = " ".join(load_pdf(write_font_codes_pdf(tmp_path / "t1.pdf", line)).split())
    assert "scientific data is in the file; a different flavour of the official \u201cconfigure\u201d run" in text, \
        f"expected T1's ligature codes read as ff/fi/fl/ffi and its quote codes as quotes; got {text!r}"


def test_a_chapter_pages_lone_number_is_dropped(tmp_path):
    """A chapter's first page prints its number alone at the bottom, where no running header is:
    it glued itself to the last sentence ("Where options can be one of: 41.", an outside tester's
    gputils manual, whose title page is unnumbered, so page 42 prints 41)."""
    body = "The linker reads objects and writes an executable file for the target device."
    pages = ["Linker Manual\n\nA guide for everyone."]
    pages += [f"CHAPTER 1. BASICS {n - 1}\n\n{body}" for n in range(2, 5)]
    pages += ["Chapter 2\n\nRunning the linker\n\nThe general syntax is shown below.\n\nWhere options can be one of:\n\n4"]
    pages += [f"CHAPTER 2. RUNNING {n - 1}\n\n{body}" for n in range(6, 9)]
    text = load_pdf_pages(write_pdf(tmp_path / "manual.pdf", pages))[4]
    assert text.rstrip().endswith("Where options can be one of:"), f"expected the page's own number (4) dropped; got {text!r}"
    kept = load_pdf_pages(write_pdf(tmp_path / "count.pdf", ["Items counted:\n\n7", "More text.", "The end."]))[0]
    assert kept.split()[-1].rstrip(".") == "7", f"a number that is not the page's own stays: {kept!r}"


def test_tex_accents_join_their_letters(tmp_path):
    # TeX sets an accent as its own glyph before the letter: the text layer reads "Z¨urich".
    text = "Printed in Z\u00a8urich by Birkh\u00a8auser; it is caf\u00b4e-sized, as in probl`eme. Run `echo' here."
    pages = load_pdf_pages(write_pdf(tmp_path / "r.pdf", [text]))
    assert "Z\u00fcrich" in pages[0] and "Birkh\u00e4user" in pages[0] \
        and "caf\u00e9" in pages[0] and "probl\u00e8me" in pages[0], f"accents joined to their letters: {pages[0]!r}"
    assert "`echo'" in pages[0], f"a backtick quote is no accent: {pages[0]!r}"
    assert clean_text("its r\u02c6ole, by Ma\u00a8\u0131eul") == "its r\u00f4le, by Ma\u00efeul"  # glyphs the test PDF's font lacks
    assert clean_text("Louren\u00b8co, Fran\u00b8cois") == "Louren\u00e7o, Fran\u00e7ois"
    assert clean_text("the company\u00b4s staff don\u00b4t") == "the company's staff don't", "an acute for an apostrophe"


def test_an_exponent_set_small_and_raised_after_a_number_is_marked(tmp_path):
    """pypdf gives "2" and a raised "31" as "231" (an outside tester's "2 × 10⁹" read "2 × 109"):
    a smaller, raised run of digits after a number of one or two digits is its exponent. After a
    longer number ("ISO/IEC 60059" and a raised "1") it is a footnote mark, left as it is."""
    def run(size, x, y, text):
        return f"BT /F1 {size} Tf {x} {y} Td ({text}) Tj ET ".encode()
    stream = (run(11, 72, 700, "Long vectors have 2") + run(7, 186, 704, "31") + run(11, 195, 700, " or more elements, and 2 x 10")
              + run(7, 340, 704, "9") + run(11, 345, 700, " is the limit.") + run(11, 72, 680, "It follows ISO/IEC 60059")
              + run(7, 214, 684, "1") + run(11, 219, 680, " closely."))
    [text] = load_pdf_pages(write_blank_pdf(tmp_path / "powers.pdf", 1, stream))
    assert "have 2^31 or more" in text and "2 x 10^9 is" in text, f"expected the exponents marked with ^; got {text!r}"
    assert "60059^" not in text, f"expected a footnote mark after a long number left alone; got {text!r}"


@pytest.mark.parametrize("cut", ["is fitted via", "is fitted as follows:"])
def test_a_sentence_the_page_break_cuts_does_not_run_on_into_a_footnote(tmp_path, cut):
    """An outside tester's answer quoted "... a hurdle model is fitted via 2Alternatively,
    over-dispersion can be confirmed ...": chunking joins lines with spaces, so the page's last
    body sentence, cut by the page break, ran on into the footnote below it. Expected: each
    footnote (smaller type after a raised mark) a sentence of its own, and the cut sentence last,
    to run on into the next page (also one that ends with a colon, before code or a list)."""
    def run(size, x, y, text):
        return f"BT /F1 {size} Tf {x} {y} Td ({text}) Tj ET ".encode()
    stream = (run(11, 72, 728, "Counts are modelled first.")
              + run(11, 72, 714, "The exploratory analysis conveyed the impression that the data")
              + run(11, 72, 700, "have more zero counts than a Poisson model explains, and so")
              + run(11, 72, 686, f"a negative binomial hurdle model {cut}")
              + run(6, 72, 104, "2") + run(9, 76, 100, "Alternatively, over-dispersion can be confirmed by a test")
              + run(9, 72, 90, "of the likelihoods.") + run(6, 72, 80, "3") + run(9, 76, 76, "See the appendix for the data."))
    [text] = load_pdf_pages(write_blank_pdf(tmp_path / "notes.pdf", 1, stream))
    sentences = split_sentences(" ".join(text.split()))  # as a chunk of whitespace tokens reads it
    assert "2Alternatively, over-dispersion can be confirmed by a test of the likelihoods." in sentences \
        and "3See the appendix for the data." in sentences, f"expected each footnote a sentence of its own; got {sentences}"
    assert sentences[-1].startswith("The exploratory") and sentences[-1].endswith(cut), \
        f"expected the sentence the page break cuts last; got {sentences}"


def test_a_long_line_of_a_script_written_without_spaces_is_kept_whole():
    """An auditor's Chinese page (landscape, small type) lost the end of every line over 100
    characters: a run that long without spaces was cut as if it were a base64 blob. Chinese,
    Japanese and Thai are written without spaces; a run of their letters is text."""
    import unicodedata

    line = unicodedata.normalize("NFKC", "年度报告：" + "公司在二零二四年的收入增长了百分之八，" * 6 + "首席财务官是洛佩斯。")
    assert len(line) > 100 and clean_text(line) == line, f"expected the {len(line)}-character line kept whole"
    blob = "QUJD" * 50
    assert clean_text(blob) == blob[:100] + "\u2026", "expected a 200-character base64 run still cut to 100"

