// The exported C functions: JSON in, JSON out. Nothing here throws or
// crashes on bad input; every failure is a status-0 Response.
#include <atomic>
#include <exception>
#include <future>
#include <new>
#include <string>

#include "abi/json_writer.h"
#include "abi/request_input.h"
#include "abi/request_plan.h"
#include "abi/returned_json.h"
#include "abi/stream_calls.h"
#include "abi/ws_calls.h"
#include "core/uuid.h"
#include "http/transaction.h"
#include "platform/clock.h"
#include "runtime/runtime.h"
#include "tls_client.h"

namespace tlsc {
namespace {

// Holds the string returned by requestAsync / waitNext until the same
// thread calls the same function again.
std::string& async_buffer() {
  thread_local std::string buf;
  return buf;
}
std::string& wait_buffer() {
  thread_local std::string buf;
  return buf;
}

char* do_request(const char* json) {
  Runtime& rt = Runtime::get();
  auto parsed = parse_and_prepare(rt.sessions(), json, "request", new_uuid());
  if (auto* f = std::get_if<PrepareFailure>(&parsed)) return keep_error(f->session_id, f->error);
  auto& p = std::get<ParsedRequest>(parsed).prepared;

  std::promise<Response> promise;
  auto future = promise.get_future();
  rt.reactor().post([client = p.session->client(), plan = std::move(p.plan), &promise]() mutable {
    Transaction::start(std::move(client), std::move(plan),
                       [&promise](Response r) { promise.set_value(std::move(r)); });
  });
  return keep_response(future.get());
}

// The JSON of an async completion, made on the loop thread: with no
// memory for it the id still completes, with a short error in its place.
std::string completion_json(const Response& r) {
  try {
    return response_to_json(r);
  } catch (const std::bad_alloc&) {
    return response_to_json(
        error_response(r.id, r.session_id, make_error(ErrorCode::internal, "out of memory")));
  }
}

char* do_request_async(const char* json) {
  std::string& out = async_buffer();
  auto fail = [&out](std::optional<std::string> sid, Error error) {
    out = response_to_json(error_response(new_uuid(), std::move(sid), std::move(error)));
    return out.data();
  };
  Runtime& rt = Runtime::get();
  std::string id = new_uuid();
  auto parsed = parse_and_prepare(rt.sessions(), json, "request", id);
  if (auto* f = std::get_if<PrepareFailure>(&parsed)) return fail(f->session_id, f->error);
  auto& p = std::get<ParsedRequest>(parsed).prepared;

  rt.completions().expect_one();
  rt.async_requests().add(id);
  rt.reactor().post([&rt, id, client = p.session->client(), plan = std::move(p.plan)]() mutable {
    auto t = Transaction::start(std::move(client), std::move(plan), [&rt](Response r) {
      // cancelRequest said yes first: the answer is "cancelled", whatever
      // else was about to finish it.
      if (!rt.async_requests().finish(r.id) && r.error_code != ErrorCode::cancelled) {
        r = error_response(r.id, r.session_id, make_error(ErrorCode::cancelled, "context canceled"));
      }
      // A large answer is serialised on the helper thread: on the loop it
      // would hold back every other request (about 2 ms per MiB).
      if (r.body.size() < (size_t{1} << 20)) {
        rt.completions().push(completion_json(r));
        return;
      }
      rt.reactor().run_blocking([&rt, r = std::move(r)] { rt.completions().push(completion_json(r)); },
                                [] {});
    });
    rt.async_requests().attach(id, t);
  });
  out.clear();
  out.append("{\"id\":");
  append_json_string(out, id);
  out.push_back('}');
  return out.data();
}

void close_sessions_on_loop(Runtime& rt, std::vector<std::shared_ptr<Session>> sessions) {
  if (sessions.empty()) return;
  rt.reactor().post([sessions = std::move(sessions)] {
    for (auto& s : sessions) s->client()->close(make_error(ErrorCode::session_closed, "session closed"));
  });
}

char* destroy_output() { return keep_success(true); }

char* do_destroy_session(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("destroySession"));
  auto input = parse_session_input(view_of(json));
  if (!input) return keep_error(std::nullopt, input.error());
  Runtime& rt = Runtime::get();
  if (auto s = rt.sessions().remove(input->session_id)) close_sessions_on_loop(rt, {s});
  return destroy_output();
}

char* do_destroy_all() {
  Runtime& rt = Runtime::get();
  end_all_streams();
  close_all_websockets();
  close_sessions_on_loop(rt, rt.sessions().remove_all());
  return destroy_output();
}

char* cookies_output(const std::vector<Cookie>& cookies) {
  std::string id = new_uuid();
  std::string json = "{\"id\":";
  append_json_string(json, id);
  json.append(",\"cookies\":[");
  for (size_t i = 0; i < cookies.size(); ++i) {
    if (i) json.push_back(',');
    append_cookie_json(json, cookies[i]);
  }
  json.append("]}");
  return Runtime::get().returned().keep(id, std::move(json));
}

template <class Input>
Result<std::pair<std::shared_ptr<Session>, Url>> session_and_url(const Input& in) {
  auto session = Runtime::get().sessions().find(in.session_id);
  if (!session) {
    return make_error(ErrorCode::invalid_input, "no client found for sessionId: " + in.session_id);
  }
  auto url = parse_url(in.url);
  if (!url) return url.error();
  return std::make_pair(std::move(session), std::move(*url));
}

char* do_get_cookies(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("getCookiesFromSession"));
  auto input = parse_session_input(view_of(json));
  if (!input) return keep_error(std::nullopt, input.error());
  auto su = session_and_url(*input);
  if (!su) return keep_error(input->session_id, su.error());
  auto& [session, url] = *su;
  auto cookies = session->client()->with_jar([&](CookieJar& jar) {
    return jar.cookies(url.scheme, url.host(), url.decoded_path(), unix_seconds());
  });
  return cookies_output(cookies);
}

char* do_add_cookies(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("addCookiesToSession"));
  auto input = parse_add_cookies_input(view_of(json));
  if (!input) return keep_error(std::nullopt, input.error());
  auto su = session_and_url(*input);
  if (!su) return keep_error(input->session_id, su.error());
  auto& [session, url] = *su;
  std::vector<Cookie> cookies;
  for (const auto& c : input->cookies) {
    cookies.push_back(
        cookie_from_caller(c.name, c.value, c.path, c.domain, c.expires, c.max_age, c.secure, c.http_only));
  }
  auto all = session->client()->with_jar([&](CookieJar& jar) {
    int64_t now = unix_seconds();
    jar.set_cookies(url.scheme, url.host(), url.decoded_path(), cookies, now);
    return jar.cookies(url.scheme, url.host(), url.decoded_path(), now);
  });
  return cookies_output(all);
}

// No exception may cross the C boundary: a failure here (allocation, a bug)
// still answers in the normal shape.
template <class F>
char* guarded(F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    try {
      return keep_error(std::nullopt,
                        make_error(ErrorCode::internal, std::string("internal error: ") + e.what()));
    } catch (...) {
      return nullptr;
    }
  } catch (...) {
    return nullptr;
  }
}

}  // namespace
}  // namespace tlsc

extern "C" {

__attribute__((visibility("default"))) char* request(char* json) {
  return tlsc::guarded([&] { return tlsc::do_request(json); });
}

__attribute__((visibility("default"))) char* requestAsync(char* json) {
  return tlsc::guarded([&] { return tlsc::do_request_async(json); });
}

__attribute__((visibility("default"))) char* waitNext(int timeout_ms) {
  return tlsc::guarded([&] {
    std::string& out = tlsc::wait_buffer();
    out = tlsc::Runtime::get().completions().wait_batch(timeout_ms);
    return out.data();
  });
}

__attribute__((visibility("default"))) void setNotify(void (*callback)(int)) {
  try {
    tlsc::Runtime::get().completions().set_notify(callback);
  } catch (...) {
  }
}

__attribute__((visibility("default"))) char* getCookiesFromSession(char* json) {
  return tlsc::guarded([&] { return tlsc::do_get_cookies(json); });
}

__attribute__((visibility("default"))) char* addCookiesToSession(char* json) {
  return tlsc::guarded([&] { return tlsc::do_add_cookies(json); });
}

__attribute__((visibility("default"))) char* freeMemory(char* id) {
  try {
    if (id != nullptr) tlsc::Runtime::get().returned().release(id);
  } catch (...) {
  }
  return nullptr;
}

__attribute__((visibility("default"))) char* destroySession(char* json) {
  return tlsc::guarded([&] { return tlsc::do_destroy_session(json); });
}

__attribute__((visibility("default"))) char* destroyAll() {
  return tlsc::guarded([&] { return tlsc::do_destroy_all(); });
}

__attribute__((visibility("default"))) char* requestStream(char* json) {
  return tlsc::guarded([&] { return tlsc::request_stream(json); });
}

__attribute__((visibility("default"))) char* readStream(char* json) {
  return tlsc::guarded([&] { return tlsc::read_stream(json); });
}

__attribute__((visibility("default"))) char* readStreamAll(char* json) {
  return tlsc::guarded([&] { return tlsc::read_stream_all(json); });
}

__attribute__((visibility("default"))) char* cancelStream(char* json) {
  return tlsc::guarded([&] { return tlsc::cancel_stream(json); });
}

__attribute__((visibility("default"))) char* cancelRequest(char* json) {
  return tlsc::guarded([&] { return tlsc::cancel_request(json); });
}

__attribute__((visibility("default"))) char* wsConnect(char* json) {
  return tlsc::guarded([&] { return tlsc::ws_connect(json); });
}

__attribute__((visibility("default"))) char* wsRead(char* json) {
  return tlsc::guarded([&] { return tlsc::ws_read(json); });
}

__attribute__((visibility("default"))) char* wsWrite(char* json) {
  return tlsc::guarded([&] { return tlsc::ws_write(json); });
}

__attribute__((visibility("default"))) char* wsClose(char* json) {
  return tlsc::guarded([&] { return tlsc::ws_close(json); });
}

}  // extern "C"
