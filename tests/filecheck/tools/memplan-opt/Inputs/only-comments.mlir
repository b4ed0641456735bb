// Only a comment: no ops.

// Another one.
