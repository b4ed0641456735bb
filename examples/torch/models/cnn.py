"""A small CNN: padded convs, BatchNorm, ReLU, max pooling, a strided conv,
global average pooling and a classifier."""

from _statistics import randomize_batchnorm

from torch import nn

INPUT_SHAPE = (1, 3, 32, 32)


def make_model() -> nn.Module:
    return randomize_batchnorm(
        nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.BatchNorm2d(32),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(32, 10),
        )
    )
