# replaces: check_faithfulness
# kind: mistake
# description: never calls the model: a claim counts as supported when its numbers and most of its longer words occur in the context (lexical heuristic)
# violates: "verify each against the joined context via an LLM yes/no call" (seed, check_faithfulness docstring)
_WORD = re.compile(r"[a-z0-9][a-z0-9.%]*[a-z0-9%]|[a-z0-9]")


def check_faithfulness(answer_text: str, chunks: list[Chunk], claims: list[str] | None = None,
                       cfg: Config | None = None) -> FaithfulnessReport:
    if claims is None:
        claims = split_claims(answer_text)
    context_words = set(_WORD.findall(" ".join(c.text for c in chunks).lower()))
    verdicts = []
    for claim in claims:
        words = [w for w in _WORD.findall(claim.lower()) if len(w) > 3 or any(ch.isdigit() for ch in w)]
        numbers = [w for w in words if any(ch.isdigit() for ch in w)]
        hits = sum(w in context_words for w in words)
        verdicts.append(all(n in context_words for n in numbers) and (not words or hits / len(words) >= 0.75))
    return FaithfulnessReport(faithfulness_score(verdicts), claims, verdicts)
