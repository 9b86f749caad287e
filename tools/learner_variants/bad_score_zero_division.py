# replaces: faithfulness_score
# kind: mistake
# description: no guard for the empty list: ZeroDivisionError
# violates: "Empty list -> 1.0 (vacuously faithful)" (seed, faithfulness_score docstring)

def faithfulness_score(verdicts: list[bool]) -> float:
    return round(sum(verdicts) / len(verdicts), 4)
