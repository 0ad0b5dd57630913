// tls-client-cpp: one request through the library, from the command line.
// It uses the library only through its public ABI (include/tls_client.h),
// JSON in and JSON out, exactly as a binding does; it is how users, and we,
// look at one request.
//
//   tls-client-cpp get URL [--profile ID] [--proxy URL] [--header 'K: V']...
//                  [--http1|--http2|--http3] [--insecure] [--json] [--fingerprint]
//                  [--method M] [--data BODY] [--timeout SECONDS] [--follow]
//   tls-client-cpp profiles [--json]
//   tls-client-cpp version
//
// Exit status: 0 on an answer (any HTTP status), 1 when the request failed
// (status 0: the library's text is printed) or --http2/--http3 was not honoured,
// 2 for a usage error.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tls_client.h"

using json = nlohmann::json;

namespace {

constexpr const char* kUsage =
    "usage: tls-client-cpp get URL [options]\n"
    "       tls-client-cpp profiles [--json]\n"
    "       tls-client-cpp version\n"
    "\n"
    "get options:\n"
    "  --profile ID       tlsClientIdentifier (default: the library's, chrome_133)\n"
    "  --proxy URL        proxyUrl (http, https, socks4, socks5 and socks5h)\n"
    "  --header 'K: V'    a request header; repeat it, headers go out in the order given\n"
    "  --http1            HTTP/1.1 only (forceHttp1)\n"
    "  --http2            fail (exit 1) unless the answer came over HTTP/2\n"
    "  --http3            race HTTP/3 against TCP (withProtocolRacing), and fail (exit 1)\n"
    "                     unless the answer came over HTTP/3\n"
    "  --insecure         do not verify the server's certificate (insecureSkipVerify)\n"
    "  --json             print the library's response JSON as it is\n"
    "  --fingerprint      URL is a capture server (build/tools/h2_capture_server, or\n"
    "                     h3_capture_server with --http3): print\n"
    "                     what it saw of this request (JA4, JA3, HTTP/2 frames, header order)\n"
    "  --method M         requestMethod (default GET)\n"
    "  --data BODY        requestBody\n"
    "  --timeout SECONDS  timeoutSeconds (default 30)\n"
    "  --follow           followRedirects\n";

int usage_error(const std::string& what) {
  std::fprintf(stderr, "tls-client-cpp: %s\n\n%s", what.c_str(), kUsage);
  return 2;
}

// Which build is loaded: the "tlsClientCpp" object of destroySession's
// answer (destroying a session that does not exist is a no-op).
const json& library_info() {
  static const json info = [] {
    std::string input = R"({"sessionId":"tls-client-cpp-info-no-such-session"})";
    const json answer = json::parse(destroySession(input.data()));
    std::string id = answer.value("id", std::string());
    freeMemory(id.data());
    return answer.value("tlsClientCpp", json::object());
  }();
  return info;
}

bool known_profile(const std::string& id) {
  for (const json& p : library_info().at("profiles")) {
    if (p["name"] == id) return true;
    for (const json& a : p["aliases"])
      if (a == id) return true;
  }
  return false;
}

// request() and freeMemory() as every binding uses them.
json call_request(const json& input) {
  std::string text = input.dump();
  char* out = request(text.data());
  json r = json::parse(out);
  if (r.contains("id") && r["id"].is_string()) {
    std::string id = r["id"];
    freeMemory(id.data());
  }
  return r;
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string joined(const json& list, const char* sep) {
  std::string out;
  for (const json& v : list) {
    if (!out.empty()) out += sep;
    out += v.is_string() ? v.get<std::string>() : v.dump();
  }
  return out;
}

const char* setting_name(int id) {
  switch (id) {
    case 1: return "HEADER_TABLE_SIZE";
    case 2: return "ENABLE_PUSH";
    case 3: return "MAX_CONCURRENT_STREAMS";
    case 4: return "INITIAL_WINDOW_SIZE";
    case 5: return "MAX_FRAME_SIZE";
    case 6: return "MAX_HEADER_LIST_SIZE";
    case 8: return "ENABLE_CONNECT_PROTOCOL";
    case 9: return "NO_RFC7540_PRIORITIES";
    default: return nullptr;
  }
}

// What the capture server saw of this request, as a short table.
void print_fingerprint(const json& capture) {
  const json tls = capture.value("tls", json::object());
  auto row = [](const char* label, const std::string& value) {
    std::printf("%-14s %s\n", label, value.c_str());
  };
  row("protocol", capture.value("protocol", std::string("?")));
  row("JA4", tls.value("ja4", std::string("?")));
  row("JA3", tls.value("ja3", std::string("?")));
  row("JA3 hash", tls.value("ja3_hash", std::string("?")));
  if (capture.contains("control_frames")) {
    // The HTTP/3 capture server: QUIC's transport parameters, the control
    // stream's frames, the request's header order.
    std::string params;
    for (const json& p : tls.value("transport_parameters", json::array())) {
      if (!params.empty()) params += ", ";
      params += p.value("grease", false) ? std::string("GREASE") : p["id"].dump();
    }
    row("QUIC params", params);
    std::string frames;
    for (const json& f : capture["control_frames"]) {
      if (!frames.empty()) frames += ", ";
      frames += f.contains("settings") ? "SETTINGS " + f["settings"].dump() : "type " + f.value("type", json()).dump();
    }
    row("control", frames);
    const json streams = capture.value("streams", json::array());
    if (!streams.empty()) {
      json names = json::array();
      for (const json& h : streams.back()["headers"]) names.push_back(h[0]);
      row("header order", joined(names, ", "));
    }
    return;
  }
  if (capture.contains("h1_lines")) {
    std::vector<std::string> names;
    const json& lines = capture["h1_lines"];
    for (size_t i = 1; i < lines.size(); ++i) {
      const std::string line = lines[i];
      names.push_back(line.substr(0, line.find(':')));
    }
    row("request line", lines.empty() ? std::string() : lines[0].get<std::string>());
    row("header order", joined(json(names), ", "));
    return;
  }
  row("Akamai", capture.value("akamai", std::string("?")));
  std::string settings;
  const json settings_seen = capture.value("settings", json::array());
  for (const json& s : settings_seen) {
    if (!settings.empty()) settings += ", ";
    const char* name = setting_name(s[0].get<int>());
    settings += (name ? std::string(name) : "0x" + std::to_string(s[0].get<int>())) + "=" + s[1].dump();
  }
  row("SETTINGS", settings);
  row("WINDOW_UPDATE", std::to_string(capture.value("window_update", 0u)));
  const int id = capture.value("stream_id", 0);
  const json streams = capture.value("streams", json::array());
  for (const json& stream : streams) {
    if (stream.value("stream_id", -1) != id) continue;
    if (stream.contains("priority")) {
      const json& p = stream["priority"];
      row("HEADERS", "stream " + std::to_string(id) + ", weight " + p["weight"].dump() + ", depends on " +
                         p["depends_on"].dump() + (p["exclusive"].get<bool>() ? ", exclusive" : ""));
    }
    json names = json::array();
    for (const json& h : stream["headers"]) names.push_back(h[0]);
    row("header order", joined(names, ", "));
  }
}

// The answer as curl -i shows it: status line, headers, blank line, body.
void print_response(const json& r) {
  std::printf("%s %d\n", r.value("usedProtocol", std::string("HTTP/1.1")).c_str(), r.value("status", 0));
  const json headers = r.value("headers", json::object());  // (items() of a temporary would dangle)
  for (const auto& [name, values] : headers.items()) {
    for (const json& v : values) std::printf("%s: %s\n", name.c_str(), v.get<std::string>().c_str());
  }
  std::printf("\n");
  const std::string body = r.value("body", std::string());
  std::fwrite(body.data(), 1, body.size(), stdout);
  if (!body.empty() && body.back() != '\n') std::printf("\n");
}

int get(const std::vector<std::string>& args) {
  json input = {{"requestMethod", "GET"}, {"timeoutSeconds", 30}, {"sessionId", "tls-client-cpp"}};
  json headers = json::object();
  json order = json::array();
  bool as_json = false, fingerprint = false, want_h2 = false, want_h3 = false;
  std::optional<std::string> url;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::optional<std::string> {
      if (i + 1 >= args.size()) return std::nullopt;
      return args[++i];
    };
    if (a == "--json") {
      as_json = true;
    } else if (a == "--fingerprint") {
      fingerprint = true;
    } else if (a == "--http1") {
      input["forceHttp1"] = true;
    } else if (a == "--http2") {
      want_h2 = true;
    } else if (a == "--http3") {
      want_h3 = true;
      input["withProtocolRacing"] = true;
    } else if (a == "--insecure" || a == "-k") {
      input["insecureSkipVerify"] = true;
    } else if (a == "--follow" || a == "-L") {
      input["followRedirects"] = true;
    } else if (a == "--profile" || a == "--proxy" || a == "--header" || a == "-H" || a == "--method" ||
               a == "--data" || a == "--timeout") {
      auto v = value();
      if (!v) return usage_error(a + " needs a value");
      if (a == "--profile") {
        if (!known_profile(*v))
          std::fprintf(stderr, "tls-client-cpp: no profile named %s: the library uses %s (see: tls-client-cpp profiles)\n",
                       v->c_str(), library_info().at("defaultProfile").get<std::string>().c_str());
        input["tlsClientIdentifier"] = *v;
      } else if (a == "--proxy") {
        input["proxyUrl"] = *v;
      } else if (a == "--method") {
        input["requestMethod"] = *v;
      } else if (a == "--data") {
        input["requestBody"] = *v;
      } else if (a == "--timeout") {
        try {
          input["timeoutSeconds"] = std::stoi(*v);
        } catch (const std::exception&) {
          return usage_error("--timeout needs a number of seconds");
        }
      } else {
        const size_t colon = v->find(':');
        if (colon == std::string::npos || colon == 0) return usage_error("--header wants 'Name: value'");
        const std::string name = v->substr(0, colon);
        std::string val = v->substr(colon + 1);
        while (!val.empty() && val.front() == ' ') val.erase(0, 1);
        headers[name] = val;
        order.push_back(lower(name));
      }
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option " + a);
    } else if (!url) {
      url = a;
    } else {
      return usage_error("one URL only");
    }
  }
  if (!url) return usage_error("get needs a URL");
  input["requestUrl"] = *url;
  if (!headers.empty()) {
    input["headers"] = headers;
    input["headerOrder"] = order;
  }
  const json r = call_request(input);
  const int status = r.value("status", 0);
  if (status == 0) {
    if (as_json) std::printf("%s\n", r.dump(2).c_str());
    std::fprintf(stderr, "tls-client-cpp: %s (errorCode %s)\n", r.value("body", std::string()).c_str(),
                 r.value("errorCode", std::string("?")).c_str());
    return 1;
  }
  if (fingerprint) {
    const json capture = json::parse(r.value("body", std::string()), nullptr, false);
    if (capture.is_discarded() || !capture.is_object() || !capture.contains("tls")) {
      std::fprintf(stderr, "tls-client-cpp: %s did not answer as the capture server does\n", url->c_str());
      return 1;
    }
    if (as_json)
      std::printf("%s\n", capture.dump(2).c_str());
    else
      print_fingerprint(capture);
  } else if (as_json) {
    std::printf("%s\n", r.dump(2).c_str());
  } else {
    print_response(r);
  }
  for (const auto& [wanted, protocol] : {std::pair{want_h2, "HTTP/2.0"}, std::pair{want_h3, "HTTP/3.0"}}) {
    if (wanted && r.value("usedProtocol", std::string()) != protocol) {
      std::fprintf(stderr, "tls-client-cpp: the answer came over %s, not %s\n",
                   r.value("usedProtocol", std::string("?")).c_str(), protocol);
      return 1;
    }
  }
  return 0;
}

int profiles(const std::vector<std::string>& args) {
  const json& list = library_info().at("profiles");
  if (!args.empty() && args[0] == "--json") {
    std::printf("%s\n", list.dump(2).c_str());
    return 0;
  }
  std::printf("%-24s %-22s %-9s %s\n", "identifier", "client", "version", "variant");
  for (const json& p : list) {
    std::printf("%-24s %-22s %-9s %s\n", p["name"].get<std::string>().c_str(), p["client"].get<std::string>().c_str(),
                p["clientVersion"].get<std::string>().c_str(), p["variant"].get<std::string>().c_str());
  }
  std::printf("(%zu profiles; an unknown identifier gets %s, as upstream)\n", list.size(),
              library_info().at("defaultProfile").get<std::string>().c_str());
  return 0;
}

int version() {
  json info = library_info();
  info.erase("profiles");
  std::printf("tls-client-cpp %s, following tls-client %s\n%s\n", info["version"].get<std::string>().c_str(),
              info["upstream"]["version"].get<std::string>().c_str(), info.dump(2).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage_error("no command");
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (command == "get") return get(args);
    if (command == "profiles") return profiles(args);
    if (command == "version" || command == "--version") return version();
    if (command == "help" || command == "--help" || command == "-h") {
      std::printf("%s", kUsage);
      return 0;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tls-client-cpp: %s\n", e.what());
    return 1;
  }
  return usage_error("unknown command " + command);
}
