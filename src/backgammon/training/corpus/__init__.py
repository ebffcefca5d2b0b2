"""The labelling corpus: a queue of positions and the rollout labels of them, in the
repository, growing whenever a labeller runs (``backgammon label --corpus corpus``).

* :mod:`~backgammon.training.corpus.format`: the queue and label lines (a pure codec);
* :mod:`~backgammon.training.corpus.store`: the folder, its chunks and shards;
* :mod:`~backgammon.training.corpus.labeller`: labels the pending chunks;
* :mod:`~backgammon.training.corpus.fill`: draws new positions from games;
* :mod:`~backgammon.training.corpus.status`: the corpus's size by plan and kind;
* :mod:`~backgammon.training.corpus.dataset`: the labels as arrays to fit networks on.

The format and the commands are described in ``docs/training.md`` ("Corpus").
"""

from backgammon.training.corpus.dataset import labelled_arrays
from backgammon.training.corpus.format import CorpusFileError, Label, QueuedPosition
from backgammon.training.corpus.labeller import CorpusSettings, run_queue
from backgammon.training.corpus.status import corpus_status
from backgammon.training.corpus.store import Corpus

__all__ = [
    "Corpus",
    "CorpusFileError",
    "CorpusSettings",
    "Label",
    "QueuedPosition",
    "corpus_status",
    "labelled_arrays",
    "run_queue",
]
