"""Training the engine by self-play (TD) with checkpoints that resume exactly."""

from backgammon.training.trainer import Trainer, TrainingSettings

__all__ = ["Trainer", "TrainingSettings"]
