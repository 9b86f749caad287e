# replaces: faithfulness_score
# kind: mistake
# description: rounds up to four decimals with math.ceil(share * 10000) / 10000 ("never under-report"), so 1/3 gives 0.3334
# violates: "rounded to 4 decimal places (0.6667 for two of three)" (faithfulness_score docstring)
import math


def faithfulness_score(verdicts: list[bool]) -> float:
    if not verdicts:
        return 1.0
    return math.ceil(sum(verdicts) / len(verdicts) * 10000) / 10000
