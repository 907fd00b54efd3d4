"""Requests in and answers out: the one request layer that every surface (the command
line, the API) parses into value types, batches of requests, and the statistics of a
batch's answers."""
