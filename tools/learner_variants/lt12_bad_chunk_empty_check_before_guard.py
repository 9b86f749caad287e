# replaces: chunk_text
# kind: mistake
# description: a learner probe (2026-12-01, lt12): returns [] for empty text BEFORE validating the sizes, so chunk_text("", 4, 4) or chunk_text("", 0, 0) silently succeed (a misconfigured RAG_CHUNK_OVERLAP goes unnoticed on a blank first page)
# violates: "chunk_size <= 0, overlap < 0 or overlap >= chunk_size raise ValueError, for any text, empty included" (chunk_text docstring)


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    tokens = text.split()
    if not tokens:
        return []
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    step = chunk_size - overlap
    chunks = []
    start = 0
    while start < len(tokens):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
        start += step
    return chunks
