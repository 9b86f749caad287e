# replaces: faithfulness_score
# kind: mistake
# description: rounds to two decimals (0.67)
# violates: "The score is rounded to four decimals." (project.md); example "-> 0.6667" (seed)

def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    return round(sum(verdicts) / len(verdicts), 2)
