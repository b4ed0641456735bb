"""Shared by the example models: BatchNorm statistics that are not the identity.

A freshly built BatchNorm in eval mode has mean 0, variance 1, scale 1 and
shift 0, so a wrong per-channel broadcast of any of them would go unnoticed.
"""

from torch import nn


def randomize_batchnorm(model: nn.Module) -> nn.Module:
    """Give every BatchNorm random running statistics and affine parameters."""
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            nn.init.uniform_(module.running_mean, -0.5, 0.5)
            nn.init.uniform_(module.running_var, 0.5, 2.0)
            nn.init.uniform_(module.weight, 0.5, 1.5)
            nn.init.uniform_(module.bias, -0.5, 0.5)
    return model
