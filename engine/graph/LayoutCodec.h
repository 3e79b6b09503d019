#pragma once

// The layout cache's key and bytes (LayoutCache stores them): inputKey() hashes everything
// LayeredLayout::compute() reads, encode() and decode() turn a LayoutResult into the PSLAYOU2
// format and back (boxes, then routes; host byte order: a cache lives beside the library file
// on the machine that wrote it). Plain data, no state: any thread.

#include "graph/LayeredLayout.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ps::graph {

class LayoutCodec {
public:
    /// 16 hex digits hashing everything LayeredLayout::compute() reads: the inputs, the widths,
    /// the bands, the options.
    static std::string inputKey(const LayoutInput& input, const LayoutOptions& options);

    /// A compact binary form for the layout cache, routes included, and back. decode() refuses
    /// (nullopt) bytes that are not a layout of exactly `items` items in this format (an older
    /// format's bytes included) and never reads past `bytes`.
    static std::string encode(const LayoutResult& layout);
    static std::optional<LayoutResult> decode(std::string_view bytes, std::size_t items);
};

}  // namespace ps::graph
