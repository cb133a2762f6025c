"""The engine against real Tenhou records and shanten vectors nobody on this project computed."""
from rules.cases import check_case, read_cases
from rules.shanten import chiitoitsu_shanten, kokushi_shanten, regular_shanten


def test_every_tenhou_case_agrees(shared):
    failures, previous, n = [], None, 0
    for case in read_cases(shared / "data/rules/tenhou-cases.jsonl"):
        result = check_case(case, previous)
        previous = case
        n += 1
        if not result.ok:
            failures.append(f"{result.id}: {result.problems}")
    assert n == 6878
    assert not failures, f"{len(failures)} cases disagree, first: {failures[:5]}"


def test_every_shanten_vector_agrees(shared):
    wrong = []
    for name in ("normal", "hon", "tin", "koku"):
        for line in open(shared / f"data/rules/shanten-{name}.txt"):
            values = list(map(int, line.split()))
            counts = [0] * 34
            for k in values[:14]:
                counts[k] += 1
            got = [regular_shanten(counts), kokushi_shanten(counts), chiitoitsu_shanten(counts)]
            if got != values[14:]:
                wrong.append((name, values, got))
    assert not wrong, f"{len(wrong)} of 40000 disagree, first: {wrong[:3]}"
