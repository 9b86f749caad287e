# replaces: faithfulness_score
# kind: mistake
# description: an empty verdict list scores 0.0 ("no supported claims")
# violates: "Empty list -> 1.0 (vacuously faithful)" (seed, faithfulness_score docstring)

def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 0.0
    return round(sum(verdicts) / len(verdicts), 4)
