//! The verdict: the pattern the launches show, in one sentence, and what each host rule would
//! make of it (replayed through the engine's simulator).
