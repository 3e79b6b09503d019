#pragma once

#include "compare/RunDiff.h"

namespace ps::compare {

class TextDiff;

/// The "why" of a RunDiff: what each run was made from (the report's provenance, each capture's
/// inputs, backend, tracer and decompositions, the script's text) compared, in plain words.
class DiffCauses {
public:
    /// The script's hunks in plain words, in side b's line numbers.
    static std::vector<std::string> describeScript(const TextDiff& script);
    /// Inputs of two captures compared entry by entry (by path).
    static std::vector<Difference> inputs(const nlohmann::json& captureA, const nlohmann::json& captureB);
    /// backend, tracer, decompositions.
    static std::vector<Difference> options(const nlohmann::json& captureA, const nlohmann::json& captureB);
    /// torch, Python, machine, environment (the reports' provenance objects), Triton and the GPUs
    /// (their stamps).
    static std::vector<Difference> provenance(const nlohmann::json& reportA, const nlohmann::json& reportB);
    /// Where each run ran (the report's `worker`): the host and its devices, when both record it.
    static std::vector<Difference> where(const nlohmann::json& reportA, const nlohmann::json& reportB);
    /// Fills diff.m_why from what diff already holds.
    static void explain(RunDiff& diff, const RunSide& a, const RunSide& b);
};

}  // namespace ps::compare
