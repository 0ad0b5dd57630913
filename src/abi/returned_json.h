// The strings the exported functions hand back: kept by id until the
// caller frees them (freeMemory), as upstream's unsafePointers map keeps
// them, and the failure answers every function shares.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "abi/json_writer.h"
#include "core/uuid.h"
#include "http/response.h"
#include "runtime/runtime.h"

namespace tlsc {

inline char* keep_response(const Response& r) {
  return Runtime::get().returned().keep(r.id, response_to_json(r));
}

// The same for a response given up: a body held in parts is freed as its
// JSON is written.
inline char* keep_response(Response&& r) {
  std::string json = response_to_json_releasing_body(r);
  return Runtime::get().returned().keep(r.id, std::move(json));
}

inline char* keep_error(std::optional<std::string> session_id, Error error) {
  return keep_response(error_response(new_uuid(), std::move(session_id), std::move(error)));
}

inline Error null_input(const char* what) {
  return make_error(ErrorCode::invalid_input, std::string(what) + " input is a null pointer");
}

inline std::string_view view_of(const char* p) {
  return p == nullptr ? std::string_view() : std::string_view(p);
}

// {"id": <new>, "success": <success>}: upstream's DestroyOutput.
inline char* keep_success(bool success) {
  std::string id = new_uuid();
  std::string json = "{\"id\":";
  append_json_string(json, id);
  json.append(success ? ",\"success\":true}" : ",\"success\":false}");
  return Runtime::get().returned().keep(id, std::move(json));
}

}  // namespace tlsc
