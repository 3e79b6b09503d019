#include "graph/LayoutCache.h"

namespace ps::graph {

LayoutCache::~LayoutCache() = default;

}  // namespace ps::graph
