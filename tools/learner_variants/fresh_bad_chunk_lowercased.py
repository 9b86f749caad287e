# replaces: chunk_text
# kind: mistake
# description: lowercases the text before splitting "to help retrieval", so a chunk's text is no longer the document's words
# violates: "a chunk's text is its tokens joined by single spaces" and tokens are "the words of text.split()" (chunk_text docstring)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.lower().split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
