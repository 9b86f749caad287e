"""M1: chunk_text - fixed-size, overlapping, id-tagged windows (code/chunker.py).

The contract is chunk_text's docstring and source/project.md (chunker.py, and the contract
table): windows of `chunk_size` whitespace tokens, stepping by chunk_size - overlap, ids c0, c1,
..., no redundant tail, [] for empty text, ValueError for overlap >= chunk_size."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunker import Chunk, chunk_pages, chunk_sentences, chunk_text

pytestmark = pytest.mark.m1


def test_spec_example_gives_four_overlapping_chunks():
    chunks = chunk_text("A B C D E F G H I J", chunk_size=4, overlap=2)
    assert all(isinstance(c, Chunk) for c in chunks), "chunk_text returns a list of Chunk objects"
    assert [c.text for c in chunks] == ["A B C D", "C D E F", "E F G H", "G H I J"], (
        "the spec's example: windows of 4 tokens stepping by 4 - 2 = 2, and no window after the "
        "one that reaches 'J' (source/project.md, chunker.py)")
    assert [c.id for c in chunks] == ["c0", "c1", "c2", "c3"], "ids are 'c0', 'c1', ... in order"
    assert [c.start for c in chunks] == [0, 2, 4, 6], "start is the index of the window's first token"
    assert all(c.source == "doc" for c in chunks), "the default source is 'doc'"


def test_each_call_gives_new_chunks():
    first = chunk_text("A B C D E F G H I J", chunk_size=4, overlap=2)
    first[0].id, first[0].start = "report:c9", 40  # as chunk_pages renumbers and shifts a page's chunks
    again = chunk_text("A B C D E F G H I J", chunk_size=4, overlap=2)
    assert (again[0].id, again[0].start) == ("c0", 0), (
        f"a second call with the same text gives chunks of its own, counted from 'c0' again: a cache that hands "
        f"back the same Chunk objects lets a caller's changes leak into the next call; got id {again[0].id!r}, "
        f"start {again[0].start!r}")


def test_source_is_carried():
    sources = {c.source for c in chunk_text("a b c d e", 2, 1, source="report.pdf")}
    assert sources == {"report.pdf"}, "every chunk carries the source it was given"


@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_empty_or_blank_text_gives_no_chunks(text):
    assert chunk_text(text, 4, 2) == [], "empty (or whitespace-only) text -> [] (the contract table)"


def test_short_text_is_one_chunk():
    texts = [c.text for c in chunk_text("only three words", 10, 3)]
    assert texts == ["only three words"], "text shorter than one window is one chunk, not zero or two"


def test_newlines_and_tabs_separate_tokens_like_spaces():
    # A carriage return, a form feed (a PDF's page break) and a no-break space separate tokens too.
    chunks = chunk_text("alpha\rbeta\tgamma\xa0delta\f\n\nepsilon", 2, 0)
    assert any("epsilon" in c.text.split() for c in chunks), (
        "the last token 'epsilon' is in no chunk: the last window may hold fewer than chunk_size tokens, "
        "but it is never dropped (count the windows until one reaches the end)")
    assert [c.text.split() for c in chunks] == [["alpha", "beta"], ["gamma", "delta"], ["epsilon"]], (
        "tokens are whitespace-separated: any run of whitespace separates two tokens, as text.split() splits "
        "(spaces, tabs, newlines, '\\r', '\\f', the no-break space '\\xa0'), so 'alpha\\rbeta' is two tokens")


@pytest.mark.parametrize("size, overlap", [(4, 4), (4, 5), (0, 0), (-3, 0), (4, -1)])
@pytest.mark.parametrize("text", ["a b c d e f", ""], ids=["text", "empty-text"])  # bad sizes are bad for any text
def test_invalid_sizes_raise(size, overlap, text):
    call = f"chunk_text({text!r}, chunk_size={size}, overlap={overlap})"
    try:
        within_steps(lambda: chunk_text(text, size, overlap), call)
    except ValueError:
        return
    except StillRunning as error:
        wrong = error  # failed outside this block, so the report shows one error, not two chained
    except Exception as error:  # e.g. a ZeroDivisionError from a step of zero
        wrong = AssertionError(f"{call} raised {type(error).__name__} ({error}); expected ValueError, raised before "
                               f"any window is made: check chunk_size > 0, overlap >= 0 and overlap < chunk_size first")
    else:
        wrong = None
    if wrong is not None:
        pytest.fail(str(wrong))
    why = ("chunk_size must be positive" if size <= 0 else "overlap must not be negative" if overlap < 0
           else "overlap >= chunk_size makes the step zero or negative")
    pytest.fail(f"{call} returned instead of raising ValueError: {why}, so the docstring asks for a "
                f"ValueError before any window is made")


class StillRunning(AssertionError):
    """A call stopped by `within_steps`."""


def within_steps(call, what: str, limit: int = 200_000):
    """call(), stopped with a clear failure after `limit` executed lines: a window that never
    moves (step 0) would otherwise loop, and fill memory, instead of failing."""
    import sys

    steps = 0

    def count(frame, event, arg):
        nonlocal steps
        steps += event == "line"
        if steps > limit:
            raise StillRunning(f"{what} was still running after {limit:,} lines on a 6-word text: with "
                                 f"overlap >= chunk_size the window never moves; raise ValueError first")
        return count
    previous = sys.gettrace()
    sys.settrace(count)
    try:
        return call()
    finally:
        sys.settrace(previous)


@settings(max_examples=150, deadline=None)
@given(n_tokens=st.integers(1, 120), size=st.integers(1, 25), data=st.data())
def test_windows_overlap_cover_everything_and_have_no_redundant_tail(n_tokens, size, data):
    overlap = data.draw(st.integers(0, size - 1))
    tokens = [f"w{i}" + ",.%):-"[i % 7:i % 7 + 1] for i in range(n_tokens)]  # punctuation is part of a token
    chunks = chunk_text(" ".join(tokens), size, overlap)
    step = size - overlap
    where = f"chunk_text(<{n_tokens} tokens>, chunk_size={size}, overlap={overlap})"
    assert [c.id for c in chunks] == [f"c{i}" for i in range(len(chunks))], f"{where}: ids c0, c1, ..."
    for c in chunks:
        words = c.text.split()
        assert words == tokens[c.start:c.start + len(words)], f"{where}: {c.id} must be the tokens from its start"
        assert len(words) == min(size, n_tokens - c.start), f"{where}: {c.id} must hold chunk_size tokens (fewer only at the end)"
    for a, b in zip(chunks, chunks[1:]):
        assert b.start - a.start == step, f"{where}: windows step by chunk_size - overlap = {step}"
    covered = {c.start + i for c in chunks for i in range(len(c.text.split()))}
    assert covered == set(range(n_tokens)), f"{where}: every token is in some chunk"
    assert chunks[-1].start + len(chunks[-1].text.split()) == n_tokens, f"{where}: the last window reaches the end"
    if len(chunks) > 1:
        assert chunks[-2].start + size < n_tokens, (
            f"{where}: no redundant tail: stop after the first window that reaches the end")


def test_a_repeated_passage_keeps_every_window():
    chunks = chunk_text("Page left blank. " * 4, 3, 0)
    assert [c.start for c in chunks] == [0, 3, 6, 9], (
        f"window i starts at token i*step, whatever its text: a boilerplate line repeated four times makes four "
        f"windows, not one (dropping a window whose text came before loses its place); got starts {[c.start for c in chunks]}")


def test_pages_give_each_chunk_its_page_and_exact_character_span():
    pages = ["alpha beta\ngamma  delta epsilon", "zeta eta theta iota"]  # a line break, a double space: as PDFs have
    chunks = chunk_pages(pages, 3, 1, "two.pdf")
    document = "\n\n".join(pages)
    texts = [c.text for c in chunks]
    assert [c.page for c in chunks] == [1, 1, 2, 2], (
        f"chunk_pages runs chunk_text on each page: 5 words with size 3, overlap 1 make 2 windows, 4 words "
        f"make 2 (the last window reaches the page's last word: no redundant tail); got pages "
        f"{[c.page for c in chunks]} for the chunks {texts}")
    assert [c.id for c in chunks] == ["c0", "c1", "c2", "c3"], "ids run on across pages"
    for c in chunks:
        assert document[c.char_start:c.char_end].split() == c.text.split(), f"{c.id}: its span is its text"
        assert document.split()[c.start:c.start + len(c.text.split())] == c.text.split(), f"{c.id}: its start token"


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
