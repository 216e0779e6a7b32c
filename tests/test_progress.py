"""rue_verify.studies.progress: the bar counts finished steps and names the last one."""

from rue_verify.studies.progress import counter


class Bar:
    def __init__(self):
        self.n, self.post = 0, ""

    def update(self, k):
        self.n += k

    def set_postfix_str(self, s):
        self.post = s


def test_the_bar_counts_finished_steps_and_names_them():
    b = Bar()
    after = counter(b)
    after("THM-GAP")
    assert (b.n, b.post) == (1, "THM-GAP")
    after(("figure", "c-K-constant"))
    assert (b.n, b.post) == (2, "figure c-K-constant")
