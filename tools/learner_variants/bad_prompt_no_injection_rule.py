# replaces: build_prompt
# kind: mistake
# description: grounding, citation and refusal rules, but nothing says the context is data and not instructions (prompt injection)
# violates: "A grounded prompt does four things: ... 4. Declares the context to be data: retrieved text ... may hold instructions; the model must not follow them" (lesson 3.4)
# note: the seed does not ask for this rule; project.md lists the injection defence among the reference's patterns "beyond the original brief"

def build_prompt(query: str, chunks: list[Chunk]) -> list[dict]:
    system = (
        "Answer only from the context. Cite the chunk ids you use like [c0]. "
        "If the answer is not in the context, say \"I don't know\"."
    )
    context = "\n".join(f"[{c.id}] {' '.join(c.text.split())}" for c in chunks)
    return [{"role": "system", "content": system},
            {"role": "user", "content": f"Context:\n{context}\n\nQuestion: {query}"}]
