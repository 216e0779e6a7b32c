"""rue_verify.plots.table: a figure's table survives its CSV: parameters, types and empty cells."""

from rue_verify.plots import Table


def test_table_csv_round_trip_keeps_types_and_parameters():
    t = Table([{"K": 3, "x": 0.5, "label": "sh [lowest-index ties]", "c_K": None}, {"K": 4, "x": 1e-300}],
              {"family": "c-K-constant", "seed": 7, "means": [0.5, 0.4]})
    back = Table.from_csv(t.to_csv())
    assert back.meta == t.meta
    assert back.rows == [{"K": 3, "x": 0.5, "label": "sh [lowest-index ties]", "c_K": None},
                         {"K": 4, "x": 1e-300, "label": None, "c_K": None}]


def test_where_and_values_select_rows():
    t = Table([{"K": 3, "s": "a"}, {"K": 4, "s": "b"}, {"K": 3, "s": "c"}])
    assert t.where(K=3) == [{"K": 3, "s": "a"}, {"K": 3, "s": "c"}] and t.values("K") == [3, 4]
