//! Table-driven tests of loading and checking.
