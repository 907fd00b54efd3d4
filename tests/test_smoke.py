import kingsolve


def test_package_imports():
    assert kingsolve.Deal.random(seed=1).players == 4
