// soc/batch/src/param_axes.h -- private to the sweep spec (sweep.cpp, param_axes.cpp): a
// sweep's 'parameters' (docs/sweeps.md) as axes of values, each value with where the spec gave
// it, and their expansion into the sweep's points.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "blsim/soc/config_node.h"
#include "blsim/soc/sweep.h"

namespace blsim::soc::sweep_detail {

// A value with where the spec gave it.
struct located_value {
    sweep_value v;
    cfg::mark at;
};

// One parameter key and its values.
struct axis {
    std::string key;
    cfg::mark key_at;
    std::string where; // "parameters[1]" or "parameters[0].zip[1]"
    std::vector<located_value> values;
};

// One item of 'parameters': one axis, several (zip) whose values advance together, or several
// (one_at_a_time) of which each point sets at most one.
struct item {
    std::vector<axis> axes;
    bool one_at_a_time = false;

    // The item's rows: the points it contributes to the cartesian product.
    std::size_t size() const;
    // Row @r as (axis, value) indices: every axis at its r-th value (a zip, or one axis); for
    // one_at_a_time, none for row 0 (the base), then each member's values in turn, alone.
    std::vector<std::pair<std::size_t, std::size_t>> row(std::size_t r) const;
};

// The axis and value behind each parameter of a point, for locating its errors.
struct point_origin {
    std::vector<const axis*> axes;
    std::vector<const located_value*> values;
};

// The spec's grammar, shared by its top level (sweep.cpp) and its parameters: whether @n is
// YAML's null (or nothing); the keys of mapping @m not in @known reported; whether @k is a
// dotted key (no empty part, no blank, no '='); the required key @key of mapping @m, reported
// missing.
bool is_null_scalar(const cfg::node& n);
void check_keys(const cfg::node& m, const std::string& where, const std::vector<std::string>& known,
                cfg::diagnostics& d);
bool dotted_key(const std::string& k);
const cfg::node* required(const cfg::node& m, const char* key, const std::string& where, cfg::diagnostics& d);

// The spec's 'parameters' list @n into @items; an item with a problem is reported and left out.
void parse_parameters(const cfg::node& n, std::vector<item>& items, cfg::diagnostics& d);

// How many points @items make (the product of their sizes); reported at @root's 'parameters'
// when more than a sweep may have.
long long count_points(const std::vector<item>& items, const cfg::node& root, cfg::diagnostics& d);

// The @total points of @items into @spec (its keys, and its points with their ids): the
// cartesian product of the items' rows, the last item fastest; @origins, each point's axes and
// values.
void expand_points(const std::vector<item>& items, long long total, sweep_spec& spec,
                   std::vector<point_origin>& origins);

} // namespace blsim::soc::sweep_detail
