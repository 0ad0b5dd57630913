// The exported C functions: JSON in, JSON out. Nothing here throws or
// crashes on bad input; every failure is a status-0 Response.
#include <atomic>
#include <exception>
#include <future>
#include <new>
#include <string>

#include "abi/json_writer.h"
#include "abi/library_info.h"
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
    try {
      Transaction::start(std::move(client), std::move(plan),
                         [&promise](Response r) { promise.set_value(std::move(r)); });
    } catch (...) {
      // No memory for the transaction: the caller's wait ends with that
      // (set_exception allocates nothing; guarded answers).
      promise.set_exception(std::current_exception());
    }
  });
  return keep_response(future.get());
}

// The JSON of an async completion, made on the loop thread: with no
// memory for it the id still completes, with a short error in its place.
// A body held in parts is freed as it is written.
std::string completion_json(Response& r) {
  try {
    return response_to_json_releasing_body(r);
  } catch (const std::bad_alloc&) {
    return response_to_json(error_response(r.id, r.session_id, no_memory_error()));
  }
}

// Loop thread: an async request's answer goes to the completion queue.
void hand_over_async(Runtime& rt, Response& r) {
  // cancelRequest said yes first: the answer is "cancelled", whatever
  // else was about to finish it.
  if (!rt.async_requests().finish(r.id) && r.error_code != ErrorCode::cancelled) {
    r = error_response(r.id, r.session_id, make_error(ErrorCode::cancelled, "context canceled"));
  }
  // A large answer is serialised on the helper thread: on the loop it
  // would hold back every other request (about 2 ms per MiB).
  if (r.body_size() >= (size_t{1} << 20)) {
    const std::string id = r.id;
    const std::optional<std::string> sid = r.session_id;
    try {
      rt.reactor().run_blocking(
          [&rt, r = std::move(r)]() mutable {
            try {
              rt.completions().push(completion_json(r));
            } catch (...) {
              rt.completions().forget_one();  // no waitNext waits for ever
            }
          },
          [] {});
      return;
    } catch (const std::bad_alloc&) {
      r = error_response(id, sid, no_memory_error());
    }
  }
  rt.completions().push(completion_json(r));
}

// The same, for every answer: the id completes whatever runs out of
// memory on the way (push itself needs none: expect_one took its room).
void complete_async(Runtime& rt, Response r) {
  try {
    hand_over_async(rt, r);
    return;
  } catch (const std::bad_alloc&) {
    // r still has its id: hand_over_async moves out of it only where it
    // cannot fail any more.
  }
  try {
    Response failed = error_response(r.id, r.session_id, no_memory_error());
    rt.completions().push(completion_json(failed));
  } catch (...) {
    // Not even that: the answer is lost, but no waitNext waits for it.
    rt.completions().forget_one();
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

  // Accepted from here: the id completes exactly once. If the request
  // cannot even be posted, it was not accepted after all.
  rt.completions().expect_one();
  try {
    rt.async_requests().add(id);
  } catch (...) {
    rt.completions().forget_one();
    throw;
  }
  auto task = [&rt, id, sid = p.plan.session_id, client = p.session->client(),
               plan = std::move(p.plan)]() mutable {
    std::shared_ptr<Transaction> t;
    try {
      t = Transaction::start(std::move(client), std::move(plan),
                             [&rt](Response r) { complete_async(rt, std::move(r)); });
    } catch (const std::bad_alloc&) {
      // No memory for the transaction: the id completes with that.
      complete_async(rt, error_response(id, sid, no_memory_error()));
      return;
    }
    rt.async_requests().attach(id, t);
  };
  try {
    rt.reactor().post(std::move(task));
  } catch (...) {
    rt.async_requests().finish(id);
    rt.completions().forget_one();
    throw;
  }
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

// destroySession's answer also says which build is loaded ("tlsClientCpp",
// a field upstream's bindings ignore): the one place a caller can ask
// without a request, since an unknown sessionId is destroyed as a no-op.
char* destroy_session_output() {
  std::string id = new_uuid();
  std::string json = "{\"id\":";
  append_json_string(json, id);
  json.append(",\"success\":true,\"tlsClientCpp\":");
  json.append(library_info_json());
  json.push_back('}');
  return Runtime::get().returned().keep(id, std::move(json));
}

char* do_destroy_session(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("destroySession"));
  auto input = parse_session_input(view_of(json));
  if (!input) return keep_error(std::nullopt, input.error());
  Runtime& rt = Runtime::get();
  if (auto s = rt.sessions().remove(input->session_id)) close_sessions_on_loop(rt, {s});
  return destroy_session_output();
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
  } catch (const std::bad_alloc&) {
    try {
      return keep_error(std::nullopt, no_memory_error());
    } catch (...) {
      return nullptr;
    }
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

// The ABI's functions are the only symbols the library exports: on ELF by
// default visibility (and abi/exports.map), on Windows by the .def file
// CMake writes from the same list.
#ifdef _WIN32
#define TLSC_EXPORT
#else
#define TLSC_EXPORT __attribute__((visibility("default")))
#endif

extern "C" {

TLSC_EXPORT char* request(char* json) {
  return tlsc::guarded([&] { return tlsc::do_request(json); });
}

TLSC_EXPORT char* requestAsync(char* json) {
  return tlsc::guarded([&] { return tlsc::do_request_async(json); });
}

TLSC_EXPORT char* waitNext(int timeout_ms) {
  // Always an array: a failure (no memory for the batch) is an empty one,
  // and what was waiting stays queued for the next call.
  static char empty[] = "[]";
  try {
    std::string& out = tlsc::wait_buffer();
    out = tlsc::Runtime::get().completions().wait_batch(timeout_ms);
    return out.data();
  } catch (...) {
    return empty;
  }
}

TLSC_EXPORT void setNotify(void (*callback)(int)) {
  try {
    tlsc::Runtime::get().completions().set_notify(callback);
  } catch (...) {
  }
}

TLSC_EXPORT char* getCookiesFromSession(char* json) {
  return tlsc::guarded([&] { return tlsc::do_get_cookies(json); });
}

TLSC_EXPORT char* addCookiesToSession(char* json) {
  return tlsc::guarded([&] { return tlsc::do_add_cookies(json); });
}

TLSC_EXPORT char* freeMemory(char* id) {
  try {
    if (id != nullptr) tlsc::Runtime::get().returned().release(id);
  } catch (...) {
  }
  return nullptr;
}

TLSC_EXPORT char* destroySession(char* json) {
  return tlsc::guarded([&] { return tlsc::do_destroy_session(json); });
}

TLSC_EXPORT char* destroyAll() {
  return tlsc::guarded([&] { return tlsc::do_destroy_all(); });
}

TLSC_EXPORT char* requestStream(char* json) {
  return tlsc::guarded([&] { return tlsc::request_stream(json); });
}

TLSC_EXPORT char* readStream(char* json) {
  return tlsc::guarded([&] { return tlsc::read_stream(json); });
}

TLSC_EXPORT char* readStreamAll(char* json) {
  return tlsc::guarded([&] { return tlsc::read_stream_all(json); });
}

TLSC_EXPORT char* cancelStream(char* json) {
  return tlsc::guarded([&] { return tlsc::cancel_stream(json); });
}

TLSC_EXPORT char* cancelRequest(char* json) {
  return tlsc::guarded([&] { return tlsc::cancel_request(json); });
}

TLSC_EXPORT char* wsConnect(char* json) {
  return tlsc::guarded([&] { return tlsc::ws_connect(json); });
}

TLSC_EXPORT char* wsRead(char* json) {
  return tlsc::guarded([&] { return tlsc::ws_read(json); });
}

TLSC_EXPORT char* wsWrite(char* json) {
  return tlsc::guarded([&] { return tlsc::ws_write(json); });
}

TLSC_EXPORT char* wsClose(char* json) {
  return tlsc::guarded([&] { return tlsc::ws_close(json); });
}
}  // extern "C"
