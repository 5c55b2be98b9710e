from journeys import random_journey

def test_seed107(gui):
    walk = random_journey(gui, 107, 150, evening=True)
    print(walk.checks)
