# replaces: chunk_text
# kind: mistake
# description: LangChain-style: chunk_size and overlap counted in characters (words kept whole), start is a character offset
# violates: "Fixed-size windows over whitespace tokens, stepping by (chunk_size - overlap)" (project.md chunker.py); "start is the index of the window's first token" (chunk_text docstring)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    flat = " ".join(text.split())
    chunks = []
    start = 0
    while start < len(flat):
        end = min(len(flat), start + chunk_size)
        while end < len(flat) and flat[end] != " " and end > start + 1:
            end -= 1  # do not cut a word
        piece = flat[start:end].strip()
        if piece:
            chunks.append(Chunk(f"c{len(chunks)}", piece, source, start))
        if end >= len(flat):
            break
        start = max(start + 1, end - overlap)
    return chunks
