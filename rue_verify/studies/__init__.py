"""Running the studies beside `rue_verify.reproduction` and `rue_verify.rates`: the sweep of a grid's
tasks into a result store, locally or on Dask (`sweep`), the reproduction's summary and figures from
stored rows (`summary`), the fixed-means setups' table (`fixed_table`), and the progress bars every
long run shows (`progress`)."""
