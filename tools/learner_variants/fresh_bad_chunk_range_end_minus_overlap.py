# replaces: chunk_text
# kind: mistake
# description: avoids the redundant tail with range(0, len(tokens) - overlap, step) and no break; right whenever the text is longer than the overlap, but a text of at most `overlap` tokens gives no chunk at all
# violates: "the last window is the first one that reaches the last token (it may be shorter than chunk_size)" (chunk_text docstring); "Empty text -> []" only for empty text (project.md)
# note: "only three words" with chunk_size=10, overlap=3 gives [] instead of one chunk

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for i, start in enumerate(range(0, len(tokens) - overlap, step)):
        chunks.append(Chunk(f"c{i}", " ".join(tokens[start:start + chunk_size]), source, start))
    return chunks
