"""`linalg.pack` and `linalg.unpack` on whole arrays, as MLIR's loops over
the dest compute them (`transform.structured.convert_to_loops`).

pack: dest[outer..., inner...] = source[i] with, for a dimension d tiled by
inner_dims_pos[j], i[d] = outer_d * tile_j + inner_j, else i[d] = outer_d,
where outer_d is the dest's outer index that `outer_dims_perm` puts d at.
An element past the source is `padding_value` when there is one (in any
dimension, as MLIR's loops check them all); without one MLIR reads out of
bounds, undefined, which is an error here.  unpack: dest[i] = source at those
indices, for the dest's elements only (a partial last tile is cut); reading
past the source is an error.  A dynamic tile must be the size of the packed
dimension it stands for (MLIR leaves anything else undefined).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memplan.interpreter.errors import ModelError


def _unpermuted(outer: Sequence[int], perm: Sequence[int]) -> list[int]:
    """The packed outer sizes in the unpacked dimensions' order."""
    if not perm:
        return list(outer)
    sizes = [0] * len(outer)
    for position, dimension in enumerate(perm):
        sizes[dimension] = outer[position]
    return sizes


def _check_tiles(name: str, tiles: Sequence[int], inner: Sequence[int]) -> None:
    if any(tile <= 0 for tile in tiles) or tuple(tiles) != tuple(inner):
        raise ModelError(
            f"{name} tiles {list(tiles)} are not the packed tile sizes "
            f"{list(inner)}: MLIR leaves this undefined"
        )


def pack(
    source: np.ndarray,
    dest_shape: Sequence[int],
    tiles: Sequence[int],
    positions: Sequence[int],
    perm: Sequence[int],
    padding: object | None,
) -> np.ndarray:
    """The values `linalg.pack` writes into a dest of `dest_shape`."""
    rank = source.ndim
    _check_tiles("linalg.pack", tiles, dest_shape[rank:])
    tile_of = dict(zip(positions, tiles, strict=True))
    outer = _unpermuted(dest_shape[:rank], perm)
    needed = [outer[d] * tile_of.get(d, 1) for d in range(rank)]
    region = source[tuple(slice(0, n) for n in needed)]
    if list(region.shape) != needed:
        if padding is None:
            raise ModelError(
                f"linalg.pack reads past its source {list(source.shape)} to fill "
                f"{needed} and has no padding_value: MLIR leaves this undefined"
            )
        padded = np.full(needed, padding, dtype=source.dtype)
        padded[tuple(slice(0, n) for n in region.shape)] = region
        region = padded
    split: list[int] = []
    outer_axis: list[int] = []
    inner_axis: dict[int, int] = {}
    for d in range(rank):
        outer_axis.append(len(split))
        split.append(outer[d])
        if d in tile_of:
            inner_axis[d] = len(split)
            split.append(tile_of[d])
    order = [outer_axis[d] for d in (perm or range(rank))]
    order += [inner_axis[d] for d in positions]
    return region.reshape(split).transpose(order)


def unpack(
    source: np.ndarray,
    dest_shape: Sequence[int],
    tiles: Sequence[int],
    positions: Sequence[int],
    perm: Sequence[int],
) -> np.ndarray:
    """The values `linalg.unpack` writes into a dest of `dest_shape`."""
    rank = len(dest_shape)
    _check_tiles("linalg.unpack", tiles, source.shape[rank:])
    tile_index = {d: j for j, d in enumerate(positions)}
    outer_position = list(perm) if perm else list(range(rank))
    order: list[int] = []
    for d in range(rank):
        order.append(outer_position.index(d))
        if d in tile_index:
            order.append(rank + tile_index[d])
    outer = _unpermuted(source.shape[:rank], perm)
    sizes = [
        outer[d] * (tiles[tile_index[d]] if d in tile_index else 1) for d in range(rank)
    ]
    whole = source.transpose(order).reshape(sizes)
    if any(n > size for n, size in zip(dest_shape, sizes, strict=True)):
        raise ModelError(
            f"linalg.unpack fills {list(dest_shape)} from a source that unpacks to "
            f"{sizes}: MLIR reads past it, undefined"
        )
    return whole[tuple(slice(0, n) for n in dest_shape)]
