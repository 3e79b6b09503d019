#pragma once

// Where laid-out graphs are kept so that reopening a big graph (or a state of it seen before)
// skips the layout. The key is LayoutCodec::inputKey (everything the layout reads); the
// value is LayoutCodec::encode's bytes.
//
// Thread contract: implementations are called from layout threads, several at once.

#include <optional>
#include <string>

namespace ps::graph {

class LayoutCache {
public:
    virtual ~LayoutCache();
    /// nullopt when there is none (or it cannot be read: a cache never fails a layout).
    virtual std::optional<std::string> load(const std::string& key) = 0;
    virtual void store(const std::string& key, const std::string& bytes) = 0;
};

}  // namespace ps::graph
