# replaces: chunk_text
# kind: mistake
# description: tokens = text.strip().split(" ") without empty strings; a newline or tab is not a separator, so "line\nbreak" is one token
# violates: "Fixed-size windows over whitespace tokens" (seed, chunk_text docstring)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = [t for t in text.strip().split(" ") if t]
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
