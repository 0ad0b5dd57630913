#include "abi/json_writer.h"

#include "abi/json_string_parts.h"

namespace tlsc {

std::string readable_event_json(std::string_view id_field, std::string_view id) {
  std::string out = "{\"event\":\"readable\",";
  append_json_string(out, id_field);
  out.push_back(':');
  append_json_string(out, id);
  out.push_back('}');
  return out;
}

namespace {

// released: r's body parts, given back as they are written; or null.
std::string response_json(const Response& r, std::vector<std::string>* released) {
  std::string out;
  // Sized once: for a large body the JSON is written into its final buffer
  // (no regrowth, no copy when it is handed to the caller). The scan that
  // sizes the body costs a fraction of writing it.
  size_t fields = 256;
  if (r.headers) {
    for (const auto& [k, values] : *r.headers) {
      fields += k.size() + 8;
      for (const auto& v : values) fields += v.size() + 8;
    }
  }
  if (r.cookies) {
    for (const auto& [k, v] : *r.cookies) fields += k.size() + v.size() + 8;
  }
  // Header and cookie text escapes at most 6 bytes per byte; the guess is
  // exact for plain text and the string grows on its own otherwise.
  const size_t body_size =
      r.body_parts.empty() ? json_string_size(r.body) : json_string_size_of_parts(r.body_parts);
  out.reserve(body_size + fields + r.target.size() + r.id.size());
  out.append("{\"cookies\":");
  if (r.cookies) {
    out.push_back('{');
    bool first = true;
    for (const auto& [k, v] : *r.cookies) {
      if (!first) out.push_back(',');
      first = false;
      append_json_string(out, k);
      out.push_back(':');
      append_json_string(out, v);
    }
    out.push_back('}');
  } else {
    out.append("null");
  }
  out.append(",\"headers\":");
  if (r.headers) {
    out.push_back('{');
    bool first = true;
    for (const auto& [k, values] : *r.headers) {
      if (!first) out.push_back(',');
      first = false;
      append_json_string(out, k);
      out.append(":[");
      for (size_t i = 0; i < values.size(); ++i) {
        if (i) out.push_back(',');
        append_json_string(out, values[i]);
      }
      out.push_back(']');
    }
    out.push_back('}');
  } else {
    out.append("null");
  }
  out.append(",\"id\":");
  append_json_string(out, r.id);
  out.append(",\"body\":");
  if (r.body_parts.empty()) {
    append_json_string(out, r.body, body_size);
  } else {
    const size_t at = out.size();
    out.resize(at + body_size);
    if (released != nullptr) {
      write_json_string_of_parts_releasing(out.data() + at, *released);
    } else {
      write_json_string_of_parts(out.data() + at, r.body_parts);
    }
  }
  if (r.session_id && !r.session_id->empty()) {
    out.append(",\"sessionId\":");
    append_json_string(out, *r.session_id);
  }
  out.append(",\"target\":");
  append_json_string(out, r.target);
  out.append(",\"usedProtocol\":");
  append_json_string(out, r.used_protocol);
  out.append(",\"status\":");
  out.append(std::to_string(r.status));
  if (r.status == 0) {
    // Not upstream's: a failure's kind, for callers that branch on it.
    out.append(",\"errorCode\":");
    append_json_string(out, error_code_name(r.error_code.value_or(ErrorCode::internal)));
    if (r.error_state) {
      out.append(",\"errorState\":");
      append_json_string(out, *r.error_state);
    }
  }
  out.push_back('}');
  return out;
}

}  // namespace

std::string response_to_json(const Response& r) { return response_json(r, nullptr); }

std::string response_to_json_releasing_body(Response& r) {
  std::string out = response_json(r, &r.body_parts);
  r.body_parts.clear();
  return out;
}

void append_cookie_json(std::string& out, const Cookie& c) {
  out.append("{\"expires\":");
  // fhttp's jar reports a session cookie's expiry as the end of year 9999.
  constexpr int64_t kSessionCookieExpiry = 253402300799;
  out.append(std::to_string(c.expires.value_or(kSessionCookieExpiry)));
  out.append(",\"domain\":");
  append_json_string(out, c.domain);
  out.append(",\"name\":");
  append_json_string(out, c.name);
  out.append(",\"path\":");
  append_json_string(out, c.path);
  out.append(",\"value\":");
  append_json_string(out, c.value);
  out.append(",\"maxAge\":");
  out.append(std::to_string(c.max_age));
  out.append(",\"secure\":");
  out.append(c.secure ? "true" : "false");
  out.append(",\"httpOnly\":");
  out.append(c.http_only ? "true" : "false");
  out.push_back('}');
}

}  // namespace tlsc
