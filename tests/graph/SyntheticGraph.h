#pragma once

// Synthetic captured graphs shaped like real training steps, for the graph tests and the
// graph benchmark: a transformer-like module tree (model.stages.S.blocks.B.{norm1, attn.{q,k,
// v,o}, norm2, mlp.{fc1, act, fc2}}), parameters lifted per Linear and norm, a forward pass and
// a backward pass mirroring it in the same modules, gradients as outputs. Deterministic.

#include <nlohmann/json.hpp>

namespace ps::graphtest {

/// A "graph" object as the worker reports it, with about `nodes` nodes (never fewer).
nlohmann::json transformerGraph(int nodes, int stages = 4);

}  // namespace ps::graphtest
