//! Bounded line reading: a line longer than the limit is skipped (and counted), never buffered.
