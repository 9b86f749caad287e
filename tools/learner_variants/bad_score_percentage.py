# replaces: faithfulness_score
# kind: mistake
# description: returns a percentage (66.67) instead of a share in [0, 1]
# violates: "float in [0,1] = mean of bools" (seed, contract table)

def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 100.0
    return round(100 * sum(verdicts) / len(verdicts), 2)
