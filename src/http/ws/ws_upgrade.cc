#include "http/ws/ws_upgrade.h"

#include <array>

#include "core/ascii.h"
#include "core/base64.h"
#include "tls/crypto_primitives.h"
#include "wire/h1_request_writer.h"

namespace tlsc {
namespace {

Error bad_handshake() { return make_error(ErrorCode::websocket, "websocket: bad handshake"); }

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// gorilla's tokenListContainsValue: some comma-separated token of some
// value of the header equals `value`, ASCII case-insensitively.
bool header_has_token(const ResponseHead& head, std::string_view name, std::string_view value) {
  for (const auto& [k, v] : head.headers) {
    if (!equal_ascii_icase(k, name)) continue;
    std::string_view rest = v;
    while (true) {
      const size_t comma = rest.find(',');
      if (equal_ascii_icase(trim_ows(rest.substr(0, comma)), value)) return true;
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  return false;
}

}  // namespace

std::string ws_accept_key(std::string_view key) {
  std::string s(key);
  s.append("258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
  return base64_encode(sha1_digest(s));
}

Result<WsUpgradeRequest> make_ws_upgrade(const WsUpgradeInput& input) {
  auto parsed = parse_url(input.url);
  if (!parsed) return parsed.error();
  Url u = std::move(*parsed);
  if (u.scheme == "ws") {
    u.scheme = "http";
  } else if (u.scheme == "wss") {
    u.scheme = "https";
  } else {
    return make_error(ErrorCode::invalid_input, "malformed ws or wss URL");
  }
  if (!u.userinfo.empty()) return make_error(ErrorCode::invalid_input, "malformed ws or wss URL");

  std::array<uint8_t, 16> nonce{};
  secure_random_bytes(nonce.data(), nonce.size());
  WsUpgradeRequest out;
  out.key = base64_encode(std::string_view(reinterpret_cast<const char*>(nonce.data()), nonce.size()));

  H1Request req;
  req.method = "GET";
  req.request_target = u.request_uri();
  req.host = u.host();
  // gorilla sets these by exact key; the caller's keys are compared exactly
  // too, so "Sec-WebSocket-Key" from the caller replaces the generated one
  // while "Sec-Websocket-Key" is refused, as upstream.
  std::vector<std::pair<std::string, std::string>> h = {
      {"Upgrade", "websocket"},
      {"Connection", "Upgrade"},
      {"Sec-WebSocket-Key", out.key},
      {"Sec-WebSocket-Version", "13"},
  };
  if (!input.extensions_offer.empty()) h.emplace_back("Sec-WebSocket-Extensions", input.extensions_offer);
  auto set = [&](const std::string& k, const std::string& v) {
    for (auto& kv : h) {
      if (kv.first == k) {
        kv.second = v;
        return;
      }
    }
    h.emplace_back(k, v);
  };
  for (const auto& [k, v] : input.headers) {
    if (k == "Host") {
      req.host = v;
    } else if (k == "Upgrade" || k == "Connection" || k == "Sec-Websocket-Key" ||
               k == "Sec-Websocket-Version" || k == "Sec-Websocket-Extensions") {
      return make_error(ErrorCode::invalid_input, "websocket: duplicate header not allowed: " + k);
    } else if (k == "Sec-Websocket-Protocol") {
      set("Sec-WebSocket-Protocol", v);
    } else {
      set(k, v);
    }
  }
  req.headers = std::move(h);
  // tls-client lowercases the order before gorilla copies it in.
  for (const auto& name : input.header_order) req.header_order.push_back(ascii_lowercase(name));
  auto bytes = write_h1_request(req);
  if (!bytes) return bytes.error();
  out.bytes = std::move(*bytes);
  // The key the server must answer is the one that went out.
  std::string offer;
  for (const auto& [k, v] : req.headers) {
    if (k == "Sec-WebSocket-Key") out.key = v;
    if (equal_ascii_icase(k, "Sec-WebSocket-Extensions")) offer.append(offer.empty() ? "" : ", ").append(v);
  }
  out.deflate_offer = parse_ws_deflate_offer(offer);
  out.url = std::move(u);
  return out;
}

Result<std::optional<WsDeflateParams>> check_ws_upgrade_response(const ResponseHead& head,
                                                                 const WsUpgradeRequest& request) {
  if (head.status != 101 || !header_has_token(head, "Upgrade", "websocket") ||
      !header_has_token(head, "Connection", "upgrade")) {
    return bad_handshake();
  }
  const std::string want = ws_accept_key(request.key);
  const std::string* got = nullptr;
  for (const auto& [k, v] : head.headers) {
    if (equal_ascii_icase(k, "Sec-Websocket-Accept")) {
      got = &v;
      break;
    }
  }
  if (!got || *got != want) return bad_handshake();
  std::vector<std::string_view> extensions;
  for (const auto& [k, v] : head.headers) {
    if (equal_ascii_icase(k, "Sec-Websocket-Extensions")) extensions.push_back(v);
  }
  return accept_ws_extensions(extensions, request.deflate_offer);
}

}  // namespace tlsc
