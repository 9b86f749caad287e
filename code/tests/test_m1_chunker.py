"""M1: chunk_text - fixed-size, overlapping, id-tagged windows (code/chunker.py)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker import Chunk, chunk_pages, chunk_sentences, chunk_text

pytestmark = pytest.mark.m1


def test_spec_example_gives_four_overlapping_chunks():
    chunks = chunk_text("A B C D E F G H I J", chunk_size=4, overlap=2)
    assert [c.id for c in chunks] == ["c0", "c1", "c2", "c3"]
    assert [c.text for c in chunks] == ["A B C D", "C D E F", "E F G H", "G H I J"]
    assert [c.start for c in chunks] == [0, 2, 4, 6]
    assert all(isinstance(c, Chunk) and c.source == "doc" for c in chunks)


def test_source_is_carried():
    assert {c.source for c in chunk_text("a b c d e", 2, 1, source="report.pdf")} == {"report.pdf"}


@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_empty_or_blank_text_gives_no_chunks(text):
    assert chunk_text(text, 4, 2) == []


def test_short_text_is_one_chunk():
    assert [c.text for c in chunk_text("only three words", 10, 3)] == ["only three words"]


@pytest.mark.parametrize("size, overlap", [(4, 4), (4, 5), (0, 0), (-3, 0), (4, -1)])
def test_invalid_sizes_raise(size, overlap):
    with pytest.raises(ValueError):
        chunk_text("a b c d e f", size, overlap)


@settings(max_examples=150, deadline=None)
@given(n_tokens=st.integers(1, 120), size=st.integers(1, 25), data=st.data())
def test_windows_overlap_cover_everything_and_have_no_redundant_tail(n_tokens, size, data):
    overlap = data.draw(st.integers(0, size - 1))
    tokens = [f"w{i}" for i in range(n_tokens)]
    chunks = chunk_text(" ".join(tokens), size, overlap)
    step = size - overlap
    assert [c.id for c in chunks] == [f"c{i}" for i in range(len(chunks))]
    for c in chunks:
        words = c.text.split()
        assert words == tokens[c.start:c.start + len(words)]
        assert len(words) <= size
    for a, b in zip(chunks, chunks[1:]):
        assert b.start - a.start == step
        assert a.text.split()[-overlap:] == b.text.split()[:overlap] if overlap else True
    covered = {c.start + i for c in chunks for i in range(len(c.text.split()))}
    assert covered == set(range(n_tokens))
    # Only the last window reaches the end; the one before it must not.
    assert chunks[-1].start + len(chunks[-1].text.split()) == n_tokens
    if len(chunks) > 1:
        assert chunks[-2].start + size < n_tokens


def test_pages_give_each_chunk_its_page_and_exact_character_span():
    pages = ["alpha beta gamma delta epsilon", "zeta eta theta iota"]
    chunks = chunk_pages(pages, 3, 1, "two.pdf")
    document = "\n\n".join(pages)
    assert [c.page for c in chunks] == [1, 1, 2, 2]
    assert [c.id for c in chunks] == ["c0", "c1", "c2", "c3"]
    for c in chunks:
        assert " ".join(document[c.char_start:c.char_end].split()) == c.text
        assert document.split()[c.start:c.start + len(c.text.split())] == c.text.split()


def test_sentence_chunker_keeps_sentences_whole_within_budget():
    text = ("Revenue was 4.2M in Q3. Margin was 21%. The Berlin office opened in July. "
            "Headcount reached 140. The CFO is Tobias Reinholt.")
    chunks = chunk_sentences(text, 12, 4)
    assert all(c.text.endswith(".") for c in chunks)
    assert all(len(c.text.split()) <= 12 for c in chunks)
    joined = " ".join(c.text for c in chunks)
    for sentence in ["Revenue was 4.2M in Q3.", "The CFO is Tobias Reinholt."]:
        assert sentence in joined
    # a sentence longer than the budget is the only thing that gets cut
    long = chunk_sentences("one two three four five six seven eight nine ten.", 4, 1)
    assert [len(c.text.split()) for c in long] == [4, 4, 2]
