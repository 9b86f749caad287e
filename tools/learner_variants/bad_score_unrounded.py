# replaces: faithfulness_score
# kind: mistake
# description: returns the raw mean (0.6666666666666666) without rounding
# violates: "The score is rounded to four decimals." (project.md, faithfulness.py); example "faithfulness_score([True, True, False]) -> 0.6667" (seed)

def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    return sum(verdicts) / len(verdicts)
