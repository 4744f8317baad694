// soc/batch/src/metrics.cpp -- the walk along a dotted path into a summary.json (metrics.h).
#include "metrics.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace blsim::soc {

namespace {

// A key that indexes a list: digits, few enough for std::stoul.
bool is_index(const std::string& key)
{
    return !key.empty() && key.size() < 10 &&
           std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

template <class Json>
path_walk<Json> walk_path(const Json& doc, const std::vector<std::string>& keys, bool index_lists)
{
    const Json* at = &doc;
    for (std::size_t k = 0; k < keys.size(); k++) {
        const std::string& key = keys[k];
        if (at->is_object()) {
            auto it = at->find(key);
            if (it == at->end())
                return {path_end::no_key, at, k};
            at = &*it;
        } else if (index_lists && at->is_array()) {
            if (!is_index(key))
                return {path_end::not_index, at, k};
            const std::size_t i = std::stoul(key);
            if (i >= at->size())
                return {path_end::no_item, at, k};
            at = &(*at)[i];
        } else {
            return {path_end::not_container, at, k};
        }
    }
    return {path_end::found, at, keys.size()};
}

template path_walk<nlohmann::json> walk_path(const nlohmann::json&, const std::vector<std::string>&, bool);
template path_walk<nlohmann::ordered_json> walk_path(const nlohmann::ordered_json&, const std::vector<std::string>&,
                                                     bool);

std::string walked_path(const std::vector<std::string>& keys, std::size_t n)
{
    std::string walked;
    for (std::size_t k = 0; k < n; k++)
        walked += (k ? "." : "") + keys[k];
    return walked;
}

} // namespace blsim::soc
