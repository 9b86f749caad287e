# replaces: chunk_text
# kind: correct
# description: raises its own ChunkingError, a subclass of ValueError, with a message that names the fix
class ChunkingError(ValueError):
    """Bad chunking parameters."""


def chunk_text(text: str, chunk_size: int, overlap: int, source: str = "doc") -> list[Chunk]:
    if chunk_size <= 0:
        raise ChunkingError(f"chunk_size must be > 0 (got {chunk_size})")
    if overlap < 0 or overlap >= chunk_size:
        raise ChunkingError(f"overlap must be between 0 and chunk_size - 1 (got {overlap})")
    tokens = text.split()
    step = chunk_size - overlap
    chunks = []
    for start in range(0, len(tokens), step):
        chunks.append(Chunk(f"c{len(chunks)}", " ".join(tokens[start:start + chunk_size]), source, start))
        if start + chunk_size >= len(tokens):
            break
    return chunks
