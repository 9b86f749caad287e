# replaces: faithfulness_score
# kind: correct
# description: verdicts.count(True) / len(verdicts), rounded to four decimals, 1.0 for no verdicts

def faithfulness_score(verdicts: list[bool]) -> float:
    return round(verdicts.count(True) / len(verdicts), 4) if verdicts else 1.0
