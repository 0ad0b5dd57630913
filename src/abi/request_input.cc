#include "abi/request_input.h"

#include <functional>
#include <limits>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "abi/go_json_strings.h"
#include "abi/go_json_syntax.h"
#include "core/ascii.h"

namespace tlsc {
namespace {

using json = nlohmann::json;

// What Go's type errors call a JSON value. Go names the number only when it
// was meant for a number field (out of range, or a fraction for an integer).
std::string go_kind(const json& v, std::string_view go_type) {
  switch (v.type()) {
    case json::value_t::string:
      return "string";
    case json::value_t::boolean:
      return "bool";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    case json::value_t::number_float:
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return go_type.starts_with("int") || go_type.starts_with("uint") || go_type.starts_with("float")
                 ? "number " + v.dump()
                 : "number";
    default:
      return "value";
  }
}

// A type error as Go reports it; the first one wins, like encoding/json.
// Go names a field by the struct that holds it (`where`) and the path of
// field names from the top ("CustomTlsClient.customTlsClient.h2Settings"),
// put together here, on the error path only.
struct DecodeState {
  std::optional<Error> error;
  std::vector<const char*> path;  // the Go field names from the top to the field being decoded
  void type_error(const json& v, std::string_view where, std::string_view go_type) {
    if (error) return;
    std::string field(where);
    for (const char* name : path) field.append(".").append(name);
    error = make_error(ErrorCode::invalid_input, "json: cannot unmarshal " + go_kind(v, go_type) +
                                                     " into Go struct field " + field + " of type " +
                                                     std::string(go_type));
  }
};

// --- leaf decoders: each leaves `out` untouched on null, as Go does ---

void decode(const json& v, std::string& out, DecodeState& st, std::string_view where) {
  if (v.is_null()) return;
  if (!v.is_string()) return st.type_error(v, where, "string");
  out = v.get_ref<const std::string&>();
}

void decode(const json& v, bool& out, DecodeState& st, std::string_view where) {
  if (v.is_null()) return;
  if (!v.is_boolean()) return st.type_error(v, where, "bool");
  out = v.get<bool>();
}

template <class Int>
void decode_int(const json& v, Int& out, DecodeState& st, std::string_view where, std::string_view go_type) {
  if (v.is_null()) return;
  if (v.is_number_unsigned()) {
    auto x = v.get<uint64_t>();
    if (x > static_cast<uint64_t>(std::numeric_limits<Int>::max())) {
      return st.type_error(v, where, go_type);
    }
    out = static_cast<Int>(x);
    return;
  }
  if (v.is_number_integer()) {
    auto x = v.get<int64_t>();
    if constexpr (std::is_unsigned_v<Int>) {
      if (x < 0) return st.type_error(v, where, go_type);
      if (static_cast<uint64_t>(x) > static_cast<uint64_t>(std::numeric_limits<Int>::max())) {
        return st.type_error(v, where, go_type);
      }
    } else {
      if (x < static_cast<int64_t>(std::numeric_limits<Int>::min()) ||
          x > static_cast<int64_t>(std::numeric_limits<Int>::max())) {
        return st.type_error(v, where, go_type);
      }
    }
    out = static_cast<Int>(x);
    return;
  }
  st.type_error(v, where, go_type);
}

void decode(const json& v, int64_t& out, DecodeState& st, std::string_view where) {
  decode_int(v, out, st, where, "int");
}
void decode(const json& v, uint32_t& out, DecodeState& st, std::string_view where) {
  decode_int(v, out, st, where, "uint32");
}
void decode(const json& v, uint16_t& out, DecodeState& st, std::string_view where) {
  decode_int(v, out, st, where, "uint16");
}
void decode(const json& v, uint64_t& out, DecodeState& st, std::string_view where) {
  decode_int(v, out, st, where, "uint64");
}

// Go's name of a field's type, as its type errors print it: what a
// container holds is spelled out ("[]string", "map[string][]string",
// "[]tls_client_cffi_src.Cookie"); a pointer field names what it points to.
template <class T>
struct GoName;
template <>
struct GoName<std::string> {
  static std::string get() { return "string"; }
};
template <>
struct GoName<bool> {
  static std::string get() { return "bool"; }
};
template <>
struct GoName<int64_t> {
  static std::string get() { return "int"; }
};
template <>
struct GoName<uint16_t> {
  static std::string get() { return "uint16"; }
};
template <>
struct GoName<uint32_t> {
  static std::string get() { return "uint32"; }
};
template <>
struct GoName<uint64_t> {
  static std::string get() { return "uint64"; }
};
template <>
struct GoName<CookieInput> {
  static std::string get() { return "tls_client_cffi_src.Cookie"; }
};
template <>
struct GoName<PriorityFrameInput> {
  static std::string get() { return "tls_client_cffi_src.PriorityFrames"; }
};
template <>
struct GoName<CandidateCipherSuiteInput> {
  static std::string get() { return "tls_client_cffi_src.CandidateCipherSuite"; }
};
template <class T>
struct GoName<std::optional<T>> {
  static std::string get() { return GoName<T>::get(); }
};
template <class T>
struct GoName<std::vector<T>> {
  static std::string get() { return "[]" + GoName<T>::get(); }
};
template <class T>
struct GoName<std::vector<std::pair<std::string, T>>> {
  static std::string get() { return "map[string]" + GoName<T>::get(); }
};
template <class T>
struct GoName<std::map<std::string, T>> {
  static std::string get() { return "map[string]" + GoName<T>::get(); }
};

template <class T>
void decode(const json& v, std::optional<T>& out, DecodeState& st, std::string_view where) {
  if (v.is_null()) return;  // Go: a null pointer field stays nil
  T tmp{};
  decode(v, tmp, st, where);
  if (!st.error) out = std::move(tmp);
}

template <class T>
void decode(const json& v, std::vector<T>& out, DecodeState& st, std::string_view where) {
  if (v.is_null()) return;
  if (!v.is_array()) return st.type_error(v, where, GoName<std::vector<T>>::get());
  out.clear();
  out.reserve(v.size());
  for (const auto& item : v) {
    T tmp{};
    decode(item, tmp, st, where);
    if (st.error) return;
    out.push_back(std::move(tmp));
  }
}

template <class T>
void decode(const json& v, std::vector<std::pair<std::string, T>>& out, DecodeState& st,
            std::string_view where) {
  if (v.is_null()) return;
  if (!v.is_object()) return st.type_error(v, where, GoName<std::vector<std::pair<std::string, T>>>::get());
  out.clear();
  for (const auto& [k, item] : v.items()) {
    T tmp{};
    decode(item, tmp, st, where);
    if (st.error) return;
    out.emplace_back(k, std::move(tmp));
  }
}

template <class T>
void decode(const json& v, std::map<std::string, T>& out, DecodeState& st, std::string_view where) {
  if (v.is_null()) return;
  if (!v.is_object()) return st.type_error(v, where, GoName<std::map<std::string, T>>::get());
  for (const auto& [k, item] : v.items()) {
    T tmp{};
    decode(item, tmp, st, where);
    if (st.error) return;
    out[k] = std::move(tmp);
  }
}

// --- structs: a table of (Go json name, member decoder) per type ---

template <class S>
using FieldFn = std::function<void(const json&, S&, DecodeState&)>;

template <class S>
struct Fields {
  std::string type_name;
  std::unordered_map<std::string, FieldFn<S>> by_folded_name;

  template <class M>
  Fields& add(const char* name, M S::*member) {
    by_folded_name.emplace(ascii_lowercase(name),
                           [member, name, type = type_name](const json& v, S& s, DecodeState& st) {
                             st.path.push_back(name);
                             decode(v, s.*member, st, type);
                             st.path.pop_back();
                           });
    return *this;
  }
};

// Go writes a named type with its package: upstream's input types live in
// package tls_client_cffi_src.
std::string go_type_string(const std::string& type_name) { return "tls_client_cffi_src." + type_name; }

template <class S>
void decode_struct(const json& v, S& out, DecodeState& st, const Fields<S>& fields, std::string_view where) {
  if (v.is_null()) return;
  if (!v.is_object()) return st.type_error(v, where, go_type_string(fields.type_name));
  for (const auto& [k, item] : v.items()) {
    auto it = fields.by_folded_name.find(ascii_lowercase(k));
    if (it == fields.by_folded_name.end()) continue;
    it->second(item, out, st);
    if (st.error) return;
  }
}

const Fields<PriorityParamInput>& priority_param_fields() {
  static const auto f = [] {
    Fields<PriorityParamInput> x{"PriorityParam", {}};
    x.add("streamDep", &PriorityParamInput::stream_dep)
        .add("exclusive", &PriorityParamInput::exclusive)
        .add("weight", &PriorityParamInput::weight);
    return x;
  }();
  return f;
}
void decode(const json& v, PriorityParamInput& out, DecodeState& st, std::string_view where) {
  decode_struct(v, out, st, priority_param_fields(), where);
}

const Fields<PriorityFrameInput>& priority_frame_fields() {
  static const auto f = [] {
    Fields<PriorityFrameInput> x{"PriorityFrames", {}};
    x.add("priorityParam", &PriorityFrameInput::priority_param)
        .add("streamID", &PriorityFrameInput::stream_id);
    return x;
  }();
  return f;
}
void decode(const json& v, PriorityFrameInput& out, DecodeState& st, std::string_view where) {
  decode_struct(v, out, st, priority_frame_fields(), where);
}

const Fields<CandidateCipherSuiteInput>& candidate_fields() {
  static const auto f = [] {
    Fields<CandidateCipherSuiteInput> x{"CandidateCipherSuite", {}};
    x.add("kdfId", &CandidateCipherSuiteInput::kdf_id).add("aeadId", &CandidateCipherSuiteInput::aead_id);
    return x;
  }();
  return f;
}
void decode(const json& v, CandidateCipherSuiteInput& out, DecodeState& st, std::string_view where) {
  decode_struct(v, out, st, candidate_fields(), where);
}

// Upstream's Timestamp: a JSON number of unix seconds. null or 0 are what
// Python's tls_client sends for "no expiry"; both mean none here (abi/COMPAT.md).

const Fields<CookieInput>& cookie_fields() {
  static const auto f = [] {
    Fields<CookieInput> x{"Cookie", {}};
    x.add("expires", &CookieInput::expires)
        .add("domain", &CookieInput::domain)
        .add("name", &CookieInput::name)
        .add("path", &CookieInput::path)
        .add("value", &CookieInput::value)
        .add("maxAge", &CookieInput::max_age)
        .add("secure", &CookieInput::secure)
        .add("httpOnly", &CookieInput::http_only);
    return x;
  }();
  return f;
}
void decode(const json& v, CookieInput& out, DecodeState& st, std::string_view where) {
  decode_struct(v, out, st, cookie_fields(), where);
}

const Fields<TransportOptionsInput>& transport_fields() {
  static const auto f = [] {
    Fields<TransportOptionsInput> x{"TransportOptions", {}};
    x.add("idleConnTimeout", &TransportOptionsInput::idle_conn_timeout_ns)
        .add("maxIdleConns", &TransportOptionsInput::max_idle_conns)
        .add("maxIdleConnsPerHost", &TransportOptionsInput::max_idle_conns_per_host)
        .add("maxConnsPerHost", &TransportOptionsInput::max_conns_per_host)
        .add("maxResponseHeaderBytes", &TransportOptionsInput::max_response_header_bytes)
        .add("writeBufferSize", &TransportOptionsInput::write_buffer_size)
        .add("readBufferSize", &TransportOptionsInput::read_buffer_size)
        .add("disableKeepAlives", &TransportOptionsInput::disable_keep_alives)
        .add("disableCompression", &TransportOptionsInput::disable_compression);
    return x;
  }();
  return f;
}
void decode(const json& v, TransportOptionsInput& out, DecodeState& st, std::string_view where) {
  decode_struct(v, out, st, transport_fields(), where);
}

const Fields<CustomTlsClientInput>& custom_fields() {
  static const auto f = [] {
    using C = CustomTlsClientInput;
    Fields<C> x{"CustomTlsClient", {}};
    x.add("h2Settings", &C::h2_settings)
        .add("h2SettingsOrder", &C::h2_settings_order)
        .add("h3Settings", &C::h3_settings)
        .add("h3SettingsOrder", &C::h3_settings_order)
        .add("h3PseudoHeaderOrder", &C::h3_pseudo_header_order)
        .add("headerPriority", &C::header_priority)
        .add("certCompressionAlgos", &C::cert_compression_algos)
        .add("ja3String", &C::ja3_string)
        .add("keyShareCurves", &C::key_share_curves)
        .add("alpnProtocols", &C::alpn_protocols)
        .add("alpsProtocols", &C::alps_protocols)
        .add("ECHCandidatePayloads", &C::ech_candidate_payloads)
        .add("ECHCandidateCipherSuites", &C::ech_candidate_cipher_suites)
        .add("priorityFrames", &C::priority_frames)
        .add("pseudoHeaderOrder", &C::pseudo_header_order)
        .add("supportedDelegatedCredentialsAlgorithms", &C::supported_delegated_credentials_algorithms)
        .add("supportedSignatureAlgorithms", &C::supported_signature_algorithms)
        .add("supportedVersions", &C::supported_versions)
        .add("connectionFlow", &C::connection_flow)
        .add("recordSizeLimit", &C::record_size_limit)
        .add("streamId", &C::stream_id)
        .add("h3PriorityParam", &C::h3_priority_param)
        .add("h3SendGreaseFrames", &C::h3_send_grease_frames)
        .add("allowHttp", &C::allow_http);
    return x;
  }();
  return f;
}
void decode(const json& v, CustomTlsClientInput& out, DecodeState& st, std::string_view where) {
  decode_struct(v, out, st, custom_fields(), where);
}

const Fields<RequestInput>& request_fields() {
  static const auto f = [] {
    using R = RequestInput;
    Fields<R> x{"RequestInput", {}};
    x.add("certificatePinningHosts", &R::certificate_pinning_hosts)
        .add("customTlsClient", &R::custom_tls_client)
        .add("transportOptions", &R::transport_options)
        .add("headers", &R::headers)
        .add("defaultHeaders", &R::default_headers)
        .add("connectHeaders", &R::connect_headers)
        .add("localAddress", &R::local_address)
        .add("serverNameOverwrite", &R::server_name_overwrite)
        .add("proxyUrl", &R::proxy_url)
        .add("requestBody", &R::request_body)
        .add("requestHostOverride", &R::request_host_override)
        .add("sessionId", &R::session_id)
        .add("streamOutputBlockSize", &R::stream_output_block_size)
        .add("maxResponseBodyBytes", &R::max_response_body_bytes)
        .add("notifyOnData", &R::notify_on_data)
        .add("withAltSvc", &R::with_alt_svc)
        .add("streamOutputEOFSymbol", &R::stream_output_eof_symbol)
        .add("streamOutputPath", &R::stream_output_path)
        .add("requestMethod", &R::request_method)
        .add("requestUrl", &R::request_url)
        .add("tlsClientIdentifier", &R::tls_client_identifier)
        .add("headerOrder", &R::header_order)
        .add("requestCookies", &R::request_cookies)
        .add("timeoutMilliseconds", &R::timeout_milliseconds)
        .add("timeoutSeconds", &R::timeout_seconds)
        .add("catchPanics", &R::catch_panics)
        .add("followRedirects", &R::follow_redirects)
        .add("forceHttp1", &R::force_http1)
        .add("disableHttp3", &R::disable_http3)
        .add("withProtocolRacing", &R::with_protocol_racing)
        .add("insecureSkipVerify", &R::insecure_skip_verify)
        .add("isByteRequest", &R::is_byte_request)
        .add("isByteResponse", &R::is_byte_response)
        .add("isRotatingProxy", &R::is_rotating_proxy)
        .add("disableIPV6", &R::disable_ipv6)
        .add("disableIPV4", &R::disable_ipv4)
        .add("withDebug", &R::with_debug)
        .add("withCustomCookieJar", &R::with_custom_cookie_jar)
        .add("withoutCookieJar", &R::without_cookie_jar)
        .add("withRandomTLSExtensionOrder", &R::with_random_tls_extension_order);
    return x;
  }();
  return f;
}

Result<json> parse_json(std::string_view text) {
  // Go checks the whole input's syntax first, and its words are what
  // callers see (a nesting past its limit included), so that check runs
  // first here too: nothing deeper than the limit reaches the parser.
  if (auto syntax = go_json_syntax_error(text)) return make_error(ErrorCode::invalid_input, *syntax);
  json doc = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_discarded()) return doc;
  // What Go's scanner accepts and nlohmann does not: bytes that are not
  // UTF-8 and lone surrogate escapes inside strings, which Go decodes to
  // U+FFFD. Only on this path, so valid input is never copied.
  if (auto replaced = with_go_replacement_characters(text)) {
    doc = json::parse(replaced->begin(), replaced->end(), nullptr, /*allow_exceptions=*/false);
    if (!doc.is_discarded()) return doc;
  }
  // Anything else nlohmann refuses (a number past double's range): its
  // reason. Run again for it; only on the error path.
  try {
    json ignored = json::parse(text.begin(), text.end());
    (void)ignored;
  } catch (const json::exception& e) {
    std::string what = e.what();
    if (size_t p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    return make_error(ErrorCode::invalid_input, "invalid JSON: " + what);
  }
  return make_error(ErrorCode::invalid_input, "invalid JSON");
}

// Takes a tree apart leaves first. nlohmann's own destructor allocates a
// stack to flatten a container, and an allocation that fails in a
// destructor ends the process; emptied this way nothing is allocated. The
// recursion is bounded by kGoMaxNestingDepth.
void dispose(json& j) noexcept {
  if (j.is_array()) {
    auto& items = j.get_ref<json::array_t&>();
    for (json& item : items) dispose(item);
    items.clear();
  } else if (j.is_object()) {
    auto& members = j.get_ref<json::object_t&>();
    for (auto& member : members) dispose(member.second);
    members.clear();
  }
}

struct DisposedOnExit {
  json& tree;
  ~DisposedOnExit() { dispose(tree); }
};

template <class S>
Result<S> parse_top(std::string_view text, const Fields<S>& fields) {
  auto doc = parse_json(text);
  if (!doc) return doc.error();
  DisposedOnExit disposed{*doc};
  // null decodes into nothing, as Go leaves the struct at its zero value.
  if (doc->is_null()) *doc = json::object();
  if (!doc->is_object()) {
    const std::string type = go_type_string(fields.type_name);
    return make_error(ErrorCode::invalid_input,
                      "json: cannot unmarshal " + go_kind(*doc, type) + " into Go value of type " + type);
  }
  S out{};
  DecodeState st;
  decode_struct(*doc, out, st, fields, fields.type_name);
  if (st.error) return *st.error;
  return out;
}

}  // namespace

Result<RequestInput> parse_request_input(std::string_view text) { return parse_top(text, request_fields()); }

Result<SessionInput> parse_session_input(std::string_view text) {
  static const auto fields = [] {
    Fields<SessionInput> x{"DestroySessionInput", {}};
    x.add("sessionId", &SessionInput::session_id).add("url", &SessionInput::url);
    return x;
  }();
  return parse_top(text, fields);
}

Result<AddCookiesInput> parse_add_cookies_input(std::string_view text) {
  static const auto fields = [] {
    Fields<AddCookiesInput> x{"AddCookiesToSessionInput", {}};
    x.add("sessionId", &AddCookiesInput::session_id)
        .add("url", &AddCookiesInput::url)
        .add("cookies", &AddCookiesInput::cookies);
    return x;
  }();
  return parse_top(text, fields);
}

Result<StreamInput> parse_stream_input(std::string_view text, std::string_view go_type) {
  // Each Go type has its own fields; timeoutMs exists on ReadStreamInput only.
  auto make = [](const char* name, bool with_timeout) {
    Fields<StreamInput> x{name, {}};
    x.add("streamId", &StreamInput::stream_id);
    if (with_timeout) x.add("timeoutMs", &StreamInput::timeout_ms);
    return x;
  };
  static const auto read = make("ReadStreamInput", true);
  static const auto read_all = make("ReadStreamAllInput", false);
  static const auto cancel = make("CancelStreamInput", false);
  if (go_type == "ReadStreamInput") return parse_top(text, read);
  if (go_type == "ReadStreamAllInput") return parse_top(text, read_all);
  return parse_top(text, cancel);
}

Result<CancelRequestInput> parse_cancel_request_input(std::string_view text) {
  static const auto fields = [] {
    Fields<CancelRequestInput> x{"CancelRequestInput", {}};
    x.add("id", &CancelRequestInput::id);
    return x;
  }();
  return parse_top(text, fields);
}

Result<WsConnectInput> parse_ws_connect_input(std::string_view text) {
  static const auto fields = [] {
    using W = WsConnectInput;
    Fields<W> x{"WsConnectInput", {}};
    x.add("sessionId", &W::session_id)
        .add("customTlsClient", &W::custom_tls_client)
        .add("proxyUrl", &W::proxy_url)
        .add("url", &W::url)
        .add("tlsClientIdentifier", &W::tls_client_identifier)
        .add("headers", &W::headers)
        .add("headerOrder", &W::header_order)
        .add("handshakeTimeoutMilliseconds", &W::handshake_timeout_ms)
        .add("readBufferSize", &W::read_buffer_size)
        .add("writeBufferSize", &W::write_buffer_size)
        .add("insecureSkipVerify", &W::insecure_skip_verify)
        .add("withRandomTLSExtensionOrder", &W::with_random_tls_extension_order)
        .add("notifyOnData", &W::notify_on_data);
    return x;
  }();
  return parse_top(text, fields);
}

Result<WsCallInput> parse_ws_call_input(std::string_view text, std::string_view go_type) {
  using W = WsCallInput;
  static const auto read = [] {
    Fields<W> x{"WsReadInput", {}};
    x.add("connectionId", &W::connection_id).add("timeoutMilliseconds", &W::timeout_ms);
    return x;
  }();
  static const auto write = [] {
    Fields<W> x{"WsWriteInput", {}};
    x.add("connectionId", &W::connection_id).add("data", &W::data).add("messageType", &W::message_type);
    return x;
  }();
  static const auto close = [] {
    Fields<W> x{"WsCloseInput", {}};
    x.add("connectionId", &W::connection_id);
    return x;
  }();
  if (go_type == "WsReadInput") return parse_top(text, read);
  if (go_type == "WsWriteInput") return parse_top(text, write);
  return parse_top(text, close);
}

}  // namespace tlsc
