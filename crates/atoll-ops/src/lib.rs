//! Atoll's distributed algorithms over arrays (layered above `atoll-array`): distributed LSD
//! radix `argsort`, `sort` and multi-key `coargsort`.
