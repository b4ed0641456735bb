"""A small ResNet: a stem, two torchvision BasicBlocks (the second strided, with
a 1x1 projection on the shortcut), global average pooling and a classifier."""

from _statistics import randomize_batchnorm

from torch import nn
from torchvision.models.resnet import BasicBlock

INPUT_SHAPE = (1, 3, 32, 32)


def make_model() -> nn.Module:
    projection = nn.Sequential(
        nn.Conv2d(16, 32, 1, stride=2, bias=False), nn.BatchNorm2d(32)
    )
    return randomize_batchnorm(
        nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1, bias=False),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            BasicBlock(16, 16),
            BasicBlock(16, 32, stride=2, downsample=projection),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(32, 10),
        )
    )
