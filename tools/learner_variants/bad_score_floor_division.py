# replaces: faithfulness_score
# kind: mistake
# description: integer division (supported // total), so anything short of all-supported is 0
# violates: "F = |V|/|S| (supported claims / total)"; "float in [0,1] = mean of bools" (seed, docstring and contract table)

def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    return sum(verdicts) // len(verdicts)
