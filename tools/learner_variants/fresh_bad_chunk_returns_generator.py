# replaces: chunk_text
# kind: mistake
# description: written as a generator (yield per window): callers get a one-shot iterator, not a list; len(), indexing and a second pass fail or see nothing
# violates: "chunk_text(...) -> list[Chunk]" (project.md signature; contract table: "list[Chunk]")

def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0 or overlap < 0 or overlap >= chunk_size:
        raise ValueError("need chunk_size > 0 and 0 <= overlap < chunk_size")
    tokens = text.split()
    step = chunk_size - overlap
    for n, start in enumerate(range(0, len(tokens), step)):
        yield Chunk(f"c{n}", " ".join(tokens[start:start + chunk_size]), source, start)
        if start + chunk_size >= len(tokens):
            return
