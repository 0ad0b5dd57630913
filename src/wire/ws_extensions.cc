#include "wire/ws_extensions.h"

#include <string>

#include "core/ascii.h"

namespace tlsc {
namespace {

struct Param {
  std::string name;
  std::optional<std::string> value;
};

struct Extension {
  std::string name;
  std::vector<Param> params;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Splits at `sep` outside quoted strings.
std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"') quoted = !quoted;
    if (s[i] == '\\' && quoted) ++i;
    if (!quoted && i < s.size() && s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

// RFC 6455 section 9.1: a value is a token or a quoted string whose
// unescaped content is a token.
std::optional<std::string> unquote(std::string_view v) {
  if (v.size() < 2 || v.front() != '"' || v.back() != '"') return std::string(v);
  std::string out;
  for (size_t i = 1; i + 1 < v.size(); ++i) {
    if (v[i] == '\\') {
      if (++i + 1 >= v.size()) return std::nullopt;
    }
    out.push_back(v[i]);
  }
  return out;
}

// Every extension of the values, in order; nullopt for a syntax error.
std::optional<std::vector<Extension>> parse_extensions(const std::vector<std::string_view>& values) {
  std::vector<Extension> out;
  for (std::string_view value : values) {
    for (std::string_view element : split(value, ',')) {
      element = trim(element);
      if (element.empty()) continue;  // "1#" lists allow empty elements
      const auto pieces = split(element, ';');
      Extension e;
      e.name = ascii_lowercase(trim(pieces[0]));
      if (e.name.empty()) return std::nullopt;
      for (size_t i = 1; i < pieces.size(); ++i) {
        const std::string_view p = trim(pieces[i]);
        Param param;
        const size_t eq = p.find('=');
        param.name = ascii_lowercase(trim(p.substr(0, eq)));
        if (param.name.empty()) return std::nullopt;
        if (eq != std::string_view::npos) {
          param.value = unquote(trim(p.substr(eq + 1)));
          if (!param.value || param.value->empty()) return std::nullopt;
        }
        e.params.push_back(std::move(param));
      }
      out.push_back(std::move(e));
    }
  }
  return out;
}

// 8 to 15, written as decimal digits without a leading zero.
std::optional<int> window_bits(const std::optional<std::string>& v) {
  if (!v || v->empty() || v->size() > 2 || (*v)[0] == '0') return std::nullopt;
  int n = 0;
  for (char c : *v) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  if (n < 8 || n > 15) return std::nullopt;
  return n;
}

Error invalid_negotiation() {
  return make_error(ErrorCode::websocket, "websocket: invalid compression negotiation");
}

}  // namespace

WsDeflateOffer parse_ws_deflate_offer(std::string_view header_value) {
  WsDeflateOffer offer;
  auto exts = parse_extensions({header_value});
  if (!exts) return offer;
  for (const auto& e : *exts) {
    if (e.name != "permessage-deflate") continue;
    offer.offered = true;
    for (const auto& p : e.params) {
      if (p.name == "client_max_window_bits") offer.client_max_window_bits = true;
    }
    break;  // the first offer is the one a server takes first
  }
  return offer;
}

Result<std::optional<WsDeflateParams>> accept_ws_extensions(const std::vector<std::string_view>& values,
                                                            const WsDeflateOffer& offer) {
  auto exts = parse_extensions(values);
  if (!exts) return invalid_negotiation();
  if (exts->empty()) return std::optional<WsDeflateParams>();
  if (!offer.offered || exts->size() != 1 || (*exts)[0].name != "permessage-deflate")
    return invalid_negotiation();
  WsDeflateParams params;
  bool seen[4] = {false, false, false, false};
  for (const auto& p : (*exts)[0].params) {
    int which = -1;
    if (p.name == "server_no_context_takeover") {
      which = 0;
      if (p.value) return invalid_negotiation();
      params.server_no_context_takeover = true;
    } else if (p.name == "client_no_context_takeover") {
      which = 1;
      if (p.value) return invalid_negotiation();
      params.client_no_context_takeover = true;
    } else if (p.name == "server_max_window_bits") {
      which = 2;
      auto bits = window_bits(p.value);
      if (!bits) return invalid_negotiation();
      params.server_max_window_bits = *bits;
    } else if (p.name == "client_max_window_bits") {
      which = 3;
      auto bits = window_bits(p.value);
      if (!bits || !offer.client_max_window_bits) return invalid_negotiation();
      params.client_max_window_bits = *bits;
    } else {
      return invalid_negotiation();
    }
    if (seen[which]) return invalid_negotiation();
    seen[which] = true;
  }
  return std::optional<WsDeflateParams>(params);
}

}  // namespace tlsc
