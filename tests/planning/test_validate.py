"""validate() accepts good plans and names the first violation of each kind."""

from memplan.planning import Buffer, BufferId, validate

A = Buffer("a", 0, 4, 8)
B = Buffer("b", 2, 6, 4, alignment=4)
C = Buffer("c", 6, 9, 8)  # starts exactly when b ends


def test_valid_plan_gives_none() -> None:
    assert validate([A, B, C], {"a": 0, "b": 8, "c": 0}) is None


def test_back_to_back_lifetimes_may_share_bytes() -> None:
    assert validate([B, C], {"b": 0, "c": 0}) is None


def test_missing_offset_is_named() -> None:
    assert validate([A, B], {"a": 0}) == "buffer 'b' has no offset"


def test_negative_offset_is_named() -> None:
    assert validate([A], {"a": -8}) == "buffer 'a' has negative offset -8"


def test_misaligned_offset_is_named() -> None:
    message = validate([A, B], {"a": 0, "b": 10})
    assert message == "buffer 'b' offset 10 is not a multiple of its alignment 4"


def test_overlap_names_both_buffers_ranges_and_addresses() -> None:
    message = validate([A, B], {"a": 0, "b": 4})
    assert message == (
        "buffers 'a' (live [0, 4), bytes [0, 8)) and 'b' (live [2, 6), bytes [4, 8)) overlap"
    )


def test_overlap_found_with_a_buffer_that_is_not_the_address_neighbour() -> None:
    wide = Buffer("wide", 0, 10, 100)
    small = Buffer("small", 0, 10, 1)
    late = Buffer("late", 5, 6, 1)
    message = validate([wide, small, late], {"wide": 0, "small": 200, "late": 50})
    assert message is not None and "'wide'" in message and "'late'" in message


def test_first_violation_in_time_order_is_reported() -> None:
    early = Buffer("early", 0, 2, 4)
    early_twin = Buffer("early_twin", 1, 2, 4)
    late = Buffer("late", 5, 7, 4)
    late_twin = Buffer("late_twin", 5, 7, 4)
    offsets: dict[BufferId, int] = {
        "late": 0,
        "late_twin": 0,
        "early": 0,
        "early_twin": 2,
    }
    message = validate([late, late_twin, early, early_twin], offsets)
    assert message is not None and "'early'" in message and "'early_twin'" in message


def test_height_over_capacity_is_named() -> None:
    assert (
        validate([A, B], {"a": 0, "b": 8}, capacity=11)
        == "plan height 12 exceeds capacity 11"
    )
    assert validate([A, B], {"a": 0, "b": 8}, capacity=12) is None


def test_zero_size_buffers_never_conflict() -> None:
    empty = Buffer("empty", 0, 4, 0)
    assert validate([A, empty], {"a": 0, "empty": 0}) is None
