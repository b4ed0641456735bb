"""torchvision's resnet18 with random weights at 64x64: a full model to export.

    python examples/torch/export_model.py examples/torch/resnet18.py -o out/

The export is about 94 MB (11.7 M weights as hex dense_resource blobs), so
it is not a test fixture; bench/torch_models.py exports it when torch is available.
"""

from torch import nn
from torchvision.models import resnet18

INPUT_SHAPE = (1, 3, 64, 64)


def make_model() -> nn.Module:
    return resnet18(weights=None)
