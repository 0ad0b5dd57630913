#include "abi/ws_calls.h"

#include <memory>

#include "abi/client_options_input.h"
#include "abi/json_writer.h"
#include "abi/request_input.h"
#include "abi/returned_json.h"
#include "core/base64.h"
#include "http/ws/ws_connection.h"
#include "profiles/registry.h"
#include "runtime/runtime.h"
#include "runtime/ws_channel.h"

namespace tlsc {
namespace {

// Upstream's own cap is none; a message this big is refused with gorilla's
// "websocket: read limit exceeded" so that a server cannot grow memory
// without bound (abi/COMPAT.md).
constexpr uint64_t kMaxMessage = uint64_t{64} << 20;

Error wrapped(std::string_view prefix, Error e) {
  e.message = std::string(prefix) + e.message;
  return e;
}

Error unknown_connection(const std::string& id) {
  return make_error(ErrorCode::invalid_input, "no websocket connection found for connectionId: " + id);
}

// The inline client upstream builds when no sessionId is given: the
// profile or customTlsClient, HTTP/1.1, no jar, no redirects.
RequestInput inline_client_input(const WsConnectInput& in) {
  RequestInput r;
  r.tls_client_identifier = in.tls_client_identifier;
  r.custom_tls_client = in.custom_tls_client;
  r.proxy_url = in.proxy_url;
  r.force_http1 = true;
  r.insecure_skip_verify = in.insecure_skip_verify;
  r.with_random_tls_extension_order = in.with_random_tls_extension_order;
  r.without_cookie_jar = true;
  r.follow_redirects = false;
  return r;
}

std::string id_fields(const std::string& id, const std::string& connection_id) {
  std::string json = "{\"id\":";
  append_json_string(json, id);
  json.append(",\"connectionId\":");
  append_json_string(json, connection_id);
  return json;
}

}  // namespace

char* ws_connect(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("wsConnect"));
  auto input = parse_ws_connect_input(view_of(json));
  if (!input) return keep_error(std::nullopt, input.error());
  Runtime& rt = Runtime::get();
  std::optional<std::string> sid;
  if (input->session_id && !input->session_id->empty()) sid = input->session_id;

  std::shared_ptr<Session> session;
  if (sid) {
    session = rt.sessions().find(*sid);
    if (!session)
      return keep_error(sid, make_error(ErrorCode::invalid_input, "no client found for sessionId: " + *sid));
  } else {
    const RequestInput r = inline_client_input(*input);
    auto options = client_options_from_input(r);
    if (!options) return keep_error(std::nullopt, options.error());
    auto made = rt.sessions().acquire("", *options, modification_from_input(r));
    if (!made) return keep_error(std::nullopt, made.error());
    session = std::move(*made);
  }
  if (input->url.empty()) {
    return keep_error(sid,
                      make_error(ErrorCode::invalid_input,
                                 "failed to create websocket: url cannot be empty for websocket connection"));
  }
  // The upgrade offers the extensions the profile's browser offers (none
  // for customTlsClient, as upstream offers none).
  const Profile* profile = lookup_profile(session->client()->options().profile);
  auto request = make_ws_upgrade(WsUpgradeInput{input->url, input->headers, input->header_order,
                                                profile ? profile->websocket_extensions : std::string()});
  if (!request) return keep_error(sid, wrapped("failed to connect websocket: ", request.error()));

  WsConnection::Options options;
  if (input->write_buffer_size > 0) options.write_buffer_size = static_cast<size_t>(input->write_buffer_size);
  options.max_message = kMaxMessage;
  // Upstream has no handshake deadline unless one is given; a server that
  // never answers would hold the caller for ever, so the client's timeout
  // (30 s by default) bounds it here (abi/COMPAT.md).
  const auto client_timeout = session->client()->options().timeout;
  options.handshake_timeout = input->handshake_timeout_ms > 0
                                  ? std::chrono::milliseconds(input->handshake_timeout_ms)
                              : client_timeout.count() > 0 ? client_timeout
                                                           : std::chrono::milliseconds(0);
  auto channel = std::make_shared<WsChannel>(rt.reactor());
  rt.reactor().post([channel, client = session->client(), request = std::move(*request), options]() mutable {
    auto c = WsConnection::start(std::move(client), std::move(request), options, channel);
    channel->attach(c);
  });
  if (auto e = channel->wait_open()) {
    channel->close();
    return keep_error(sid, wrapped("failed to connect websocket: ", std::move(*e)));
  }
  const std::string connection_id = new_uuid();
  rt.websockets().add(connection_id, channel);
  if (input->notify_on_data)
    channel->notify_with(
        std::make_unique<ReadyNotice>(rt.completions(), readable_event_json("connectionId", connection_id)));
  const std::string id = new_uuid();
  std::string out = id_fields(id, connection_id);
  if (sid) {
    out.append(",\"sessionId\":");
    append_json_string(out, *sid);
  }
  out.append(",\"status\":101}");
  return rt.returned().keep(id, std::move(out));
}

char* ws_read(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("wsRead"));
  auto input = parse_ws_call_input(view_of(json), "WsReadInput");
  if (!input) return keep_error(std::nullopt, input.error());
  Runtime& rt = Runtime::get();
  auto channel = rt.websockets().find(input->connection_id);
  if (!channel) return keep_error(std::nullopt, unknown_connection(input->connection_id));
  auto message = channel->read(input->timeout_ms);
  if (!message) return keep_error(std::nullopt, wrapped("failed to read message: ", message.error()));
  const std::string id = new_uuid();
  std::string out = id_fields(id, input->connection_id);
  out.append(",\"messageType\":").append(std::to_string(message->type)).append(",\"data\":");
  if (message->type == 2) {
    out.push_back('"');
    out.append(base64_encode(message->data));
    out.push_back('"');
  } else {
    append_json_string(out, message->data);
  }
  out.push_back('}');
  return rt.returned().keep(id, std::move(out));
}

char* ws_write(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("wsWrite"));
  auto input = parse_ws_call_input(view_of(json), "WsWriteInput");
  if (!input) return keep_error(std::nullopt, input.error());
  Runtime& rt = Runtime::get();
  auto channel = rt.websockets().find(input->connection_id);
  if (!channel) return keep_error(std::nullopt, unknown_connection(input->connection_id));
  std::string data = std::move(input->data);
  if (input->message_type == 2) {
    auto decoded = base64_decode(data);
    if (!decoded)
      return keep_error(std::nullopt, wrapped("failed to base64 decode binary message: ", decoded.error()));
    data = std::move(*decoded);
  }
  // An int beyond the opcodes is a bad type, as any other unknown one.
  const int type =
      input->message_type >= 0 && input->message_type <= 255 ? static_cast<int>(input->message_type) : -1;
  if (auto e = channel->write(type, std::move(data)))
    return keep_error(std::nullopt, wrapped("failed to write message: ", std::move(*e)));
  const std::string id = new_uuid();
  std::string out = id_fields(id, input->connection_id);
  out.append(",\"success\":true}");
  return rt.returned().keep(id, std::move(out));
}

char* ws_close(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("wsClose"));
  auto input = parse_ws_call_input(view_of(json), "WsCloseInput");
  if (!input) return keep_error(std::nullopt, input.error());
  auto channel = Runtime::get().websockets().remove(input->connection_id);
  if (!channel) return keep_error(std::nullopt, unknown_connection(input->connection_id));
  channel->close();
  return keep_success(true);
}

void close_all_websockets() {
  for (auto& channel : Runtime::get().websockets().remove_all()) channel->close();
}

}  // namespace tlsc
