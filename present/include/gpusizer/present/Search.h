#pragma once

#include <string>
#include <string_view>

namespace gpusizer::present {

/// Whether every word of `query` appears in `text`, in any order, ignoring case and the difference between '_' and
/// '.' ("llama 3_1 70b" finds "Llama-3.1-70B"). An empty query matches everything.
bool matchesQuery(std::string_view text, std::string_view query);

} // namespace gpusizer::present
