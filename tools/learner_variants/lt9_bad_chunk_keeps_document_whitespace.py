# replaces: chunk_text
# kind: mistake
# description: a learner probe (2026-12-01): a chunk's text is the document's slice from its first to its last token, keeping newlines and runs of spaces
# violates: "a chunk's text is its tokens joined by single spaces (chunk_text docstring)"


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    """Fixed-size windows over whitespace tokens, stepping by (chunk_size - overlap). Each chunk gets
    a stable id ('c0', 'c1', ...), its source, and start index. Stop after the window that reaches the
    end (no redundant tail). Empty text -> [].

    The rules, in full:
    * tokens are the words of `text.split()`: any run of spaces, tabs or newlines separates two
      tokens, and a chunk's text is its tokens joined by single spaces;
    * window i covers tokens [i*step, i*step + chunk_size) with step = chunk_size - overlap, so
      neighbouring chunks share exactly `overlap` tokens;
    * ids count from 'c0' in order; `start` is the index of the window's first token;
    * the last window is the first one that reaches the last token (it may be shorter than
      chunk_size); no window after it;
    * empty or whitespace-only text gives [];
    * chunk_size <= 0, overlap < 0 or overlap >= chunk_size raise ValueError (the stride would
      be zero or negative and the loop would never end).

    Example (the spec's):
        chunk_text("A B C D E F G H I J", chunk_size=4, overlap=2)
        -> [Chunk("c0", "A B C D", "doc", 0), Chunk("c1", "C D E F", "doc", 2),
            Chunk("c2", "E F G H", "doc", 4), Chunk("c3", "G H I J", "doc", 6)]
    """
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("bad sizes")
    import re as _re
    spans = [(m.start(), m.end()) for m in _re.finditer(r"\S+", text)]
    step = chunk_size - overlap
    chunks = []
    start = 0
    while start < len(spans):
        w = spans[start:start+chunk_size]
        chunks.append(Chunk(f"c{len(chunks)}", text[w[0][0]:w[-1][1]], source, start))
        if start + chunk_size >= len(spans):
            break
        start += step
    return chunks
