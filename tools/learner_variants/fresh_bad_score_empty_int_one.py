# replaces: faithfulness_score
# kind: mistake
# description: returns the int 1 for an empty verdict list ("vacuously faithful = 1")
# violates: "Empty list -> 1.0" and "-> float" (project.md); "a float in [0, 1]" (faithfulness_score docstring)

def faithfulness_score(verdicts: list[bool]) -> float:
    if len(verdicts) == 0:
        return 1
    return round(sum(verdicts) / len(verdicts), 4)
