# replaces: chunk_text
# kind: mistake
# description: steps by chunk_size and prepends the previous `overlap` tokens to each window ("each chunk is its own chunk_size tokens plus context"), so windows after the first hold chunk_size + overlap tokens
# violates: "Fixed-size windows over whitespace tokens, stepping by (chunk_size - overlap)" (project.md chunker.py; chunk_text docstring)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    chunks = []
    for own in range(0, len(tokens), chunk_size):
        start = max(0, own - overlap)
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:own + chunk_size]), source, start))
    return chunks
