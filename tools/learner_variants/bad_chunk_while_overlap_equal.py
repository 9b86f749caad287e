# replaces: chunk_text
# kind: mistake
# description: a while loop whose guard lets overlap == chunk_size through: the window never moves (it hung pytest and filled memory before the test bounded the run)
# violates: "overlap >= size -> raise/guard" (seed, Input/Output contract table)

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or not 0 <= overlap <= chunk_size:
        raise ValueError(f"need 0 <= overlap < chunk_size, got {chunk_size=} {overlap=}")
    words, chunks, position = text.split(), [], 0
    while words:
        chunks.append(Chunk("c%d" % len(chunks), " ".join(words[position:position + chunk_size]), source, position))
        if position + chunk_size >= len(words):
            break
        position += chunk_size - overlap
    return chunks
