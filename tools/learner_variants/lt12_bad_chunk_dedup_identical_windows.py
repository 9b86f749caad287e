# replaces: chunk_text
# kind: mistake
# description: a learner probe (2026-12-01, lt12): skips a window whose text equals an earlier window ("no duplicate chunks in the index"), so repeated boilerplate loses windows and the step is no longer chunk_size - overlap
# violates: "window i covers tokens [i*step, i*step + chunk_size) with step = chunk_size - overlap" (chunk_text docstring)


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks, seen = [], set()
    start = 0
    while start < len(tokens):
        window = " ".join(tokens[start:start + chunk_size])
        if window not in seen:
            seen.add(window)
            chunks.append(Chunk(f"c{len(chunks)}", window, source, start))
        if start + chunk_size >= len(tokens):
            break
        start += step
    return chunks
