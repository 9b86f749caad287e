# replaces: faithfulness_score
# kind: mistake
# description: rounds the percentage to two places and divides by 100 again (round(share * 100, 2) / 100); the division brings back float noise, 2/3 gives 0.6667000000000001
# violates: "the share of True verdicts, rounded to 4 decimal places (0.6667 for two of three)" (faithfulness_score docstring); "faithfulness_score([True, True, False]) -> 0.6667" (project.md)

def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    percent = round(100 * sum(1 for v in verdicts if v) / len(verdicts), 2)
    return percent / 100
