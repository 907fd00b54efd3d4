"""The value model's training: labelled positions from the exact search
(``training.generate``), the model's fit (``training.fit``). Not part of the
installed package; run from a checkout (``python -m training.generate ...``)."""
