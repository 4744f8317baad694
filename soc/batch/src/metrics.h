// soc/batch/src/metrics.h -- private to the batch commands that read numbers out of a run's
// summary.json by a dotted path (compare.cpp, regress.cpp, sweep_metrics.cpp): the one walk
// along the path's keys. Each command words what it finds its own way (docs/compare.md,
// docs/regress.md, docs/sweeps.md); the walk says where and why it stopped.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace blsim::soc {

// How a walk along a path's keys ended.
enum class path_end {
    found,         // every key walked: the walk is at the value
    no_key,        // at a mapping without the next key
    not_container, // at a value the next key cannot go into (a list, unless lists are indexed)
    not_index,     // at a list, and the next key is not an index (only when lists are indexed)
    no_item,       // at a list without that many items (only when lists are indexed)
};

// Where a walk along a path's keys ended: @at, reached by the first @walked keys.
template <class Json>
struct path_walk {
    path_end end;
    const Json* at;
    std::size_t walked;
};

// Walks @keys (dotted_path's) into @doc: each key a mapping's key, or with @index_lists a
// list's index (at most 9 digits). Defined for nlohmann::json and nlohmann::ordered_json.
template <class Json>
path_walk<Json> walk_path(const Json& doc, const std::vector<std::string>& keys, bool index_lists);

// The first @n of @keys joined by dots: the part of a path a walk went along.
std::string walked_path(const std::vector<std::string>& keys, std::size_t n);

} // namespace blsim::soc
