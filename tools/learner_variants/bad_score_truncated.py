# replaces: faithfulness_score
# kind: mistake
# description: cuts to four decimals with int(x * 10000) / 10000, so 2/3 gives 0.6666 instead of 0.6667
# violates: "The score is rounded to four decimals." (project.md, faithfulness.py); example "faithfulness_score([True, True, False]) -> 0.6667" (seed)

def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    return int(sum(verdicts) / len(verdicts) * 10000) / 10000
