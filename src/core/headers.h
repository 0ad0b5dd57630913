// Header lists as requests carry them: in the caller's order, names as the
// caller wrote them (Go's http.Header is a map; tls-client's callers give
// ordered JSON objects, and the order is part of the fingerprint).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tlsc {

// One entry per value; the same name may appear more than once.
using HeaderList = std::vector<std::pair<std::string, std::string>>;
// One entry per name with all its values (defaultHeaders, connectHeaders).
using MultiHeaderMap = std::vector<std::pair<std::string, std::vector<std::string>>>;

}  // namespace tlsc
