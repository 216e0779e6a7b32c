"""rue_verify.progress: the bar counts finished steps (not started ones) and names the one running."""

from rue_verify.progress import stepper


class Bar:
    def __init__(self):
        self.n, self.post = 0, ""

    def update(self, k):
        self.n += k

    def set_postfix_str(self, s):
        self.post = s


def test_the_bar_counts_steps_finished_and_shows_the_running_one():
    bar = Bar()
    before = stepper(bar)
    before("THM-GAP")
    assert (bar.n, bar.post) == (0, "THM-GAP")
    before("LEM-A1")
    assert (bar.n, bar.post) == (1, "LEM-A1")
