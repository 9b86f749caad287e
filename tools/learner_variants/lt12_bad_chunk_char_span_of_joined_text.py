# replaces: chunk_text
# kind: mistake
# description: a learner probe (2026-12-01, lt12): also fills char_start/char_end (the Chunk has the fields), but counts them in the single-space re-joined text, not the document, so on any page with a line break or double space chunk_pages keeps wrong spans
# violates: "`start` is the index of the window's first token" and chunk_pages' exact character spans (chunk_text docstring, M1 tests)


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    offsets, pos = [], 0
    for t in tokens:
        offsets.append(pos)
        pos += len(t) + 1
    step = chunk_size - overlap
    chunks = []
    start = 0
    while start < len(tokens):
        window = tokens[start:start + chunk_size]
        end_tok = start + len(window) - 1
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(window), source, start,
                            char_start=offsets[start], char_end=offsets[end_tok] + len(tokens[end_tok])))
        if start + chunk_size >= len(tokens):
            break
        start += step
    return chunks
