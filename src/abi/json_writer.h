// JSON output as Go's encoding/json writes it: struct fields in declaration
// order, map keys sorted, HTML-safe escaping, invalid UTF-8 as U+FFFD.
#pragma once

#include <string>
#include <string_view>

#include "abi/json_string.h"
#include "cookies/cookie.h"
#include "http/response.h"

namespace tlsc {

std::string response_to_json(const Response& r);
// The same, giving the memory of a body held in parts back as it is
// written: a large body and its JSON are then never both whole in memory.
// The body parts are left empty; everything else in r stays.
std::string response_to_json_releasing_body(Response& r);
// {"expires":…,"domain":…,"name":…,"path":…,"value":…,"maxAge":…,"secure":…,"httpOnly":…}
void append_cookie_json(std::string& out, const Cookie& c);
// The event notifyOnData queues for a stream or WebSocket with something to
// read: {"event":"readable","<id_field>":"<id>"} (abi/CONTRACT.md).
std::string readable_event_json(std::string_view id_field, std::string_view id);

}  // namespace tlsc
