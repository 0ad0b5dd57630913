#include "abi/stream_calls.h"

#include <memory>

#include "abi/json_writer.h"
#include "abi/request_input.h"
#include "abi/request_plan.h"
#include "abi/returned_json.h"
#include "core/base64.h"
#include "http/transaction.h"
#include "runtime/body_stream.h"
#include "runtime/runtime.h"

namespace tlsc {
namespace {

// Upstream's StreamChunkResponse: {"id","streamId","chunk","error"
// (omitted when empty),"eof","timeout"}, plus our errorCode with an error.
char* keep_chunk(const std::string& stream_id, const BodyStream::Piece& piece,
                 std::optional<ErrorCode> code = std::nullopt) {
  using Kind = BodyStream::Piece::Kind;
  std::string id = new_uuid();
  std::string json;
  json.reserve(96 + stream_id.size() + (piece.kind == Kind::chunk ? piece.bytes.size() * 4 / 3 + 4 : 0));
  json.append("{\"id\":");
  append_json_string(json, id);
  json.append(",\"streamId\":");
  append_json_string(json, stream_id);
  json.append(",\"chunk\":\"");
  if (piece.kind == Kind::chunk) json.append(base64_encode(piece.bytes));
  json.push_back('"');
  if (piece.kind == Kind::error) {
    json.append(",\"error\":");
    append_json_string(json, piece.bytes);
    if (code) {
      json.append(",\"errorCode\":");
      append_json_string(json, error_code_name(*code));
    }
  }
  json.append(piece.kind == Kind::eof ? ",\"eof\":true" : ",\"eof\":false");
  json.append(piece.kind == Kind::timeout ? ",\"timeout\":true}" : ",\"timeout\":false}");
  return Runtime::get().returned().keep(id, std::move(json));
}

Error unknown_stream(const std::string& stream_id) {
  return make_error(ErrorCode::invalid_input, "unknown streamId: " + stream_id);
}

}  // namespace

char* request_stream(const char* json) {
  Runtime& rt = Runtime::get();
  auto parsed = parse_and_prepare(rt.sessions(), json, "requestStream", new_uuid());
  if (auto* f = std::get_if<PrepareFailure>(&parsed)) return keep_error(f->session_id, f->error);
  const RequestInput* input = &std::get<ParsedRequest>(parsed).input;
  auto& p = std::get<ParsedRequest>(parsed).prepared;

  // Upstream's default block is 4096 for streams (1024 for streamOutputPath).
  const bool block_given = input->stream_output_block_size && *input->stream_output_block_size > 0;
  auto stream = std::make_shared<BodyStream>(rt.reactor(), block_given ? p.plan.stream_block_size : 0,
                                             p.plan.is_byte_response, p.plan.max_body_bytes);
  p.plan.body_sink = stream;
  rt.reactor().post([stream, id = p.plan.id, sid = p.plan.session_id, client = p.session->client(),
                     plan = std::move(p.plan)]() mutable {
    std::shared_ptr<Transaction> t;
    try {
      t = Transaction::start(std::move(client), std::move(plan),
                             [stream](Response r) { stream->on_done(std::move(r)); });
    } catch (const std::bad_alloc&) {
      // No memory for the transaction: the caller's wait for the head ends.
      stream->on_done(error_response(id, sid, no_memory_error()));
      return;
    }
    stream->attach(t);
  });
  Response head = stream->wait_head();
  if (head.status == 0) return keep_response(head);
  std::string stream_id = new_uuid();
  rt.streams().add(stream_id, stream);
  if (input->notify_on_data)
    stream->notify_with(
        std::make_unique<ReadyNotice>(rt.completions(), readable_event_json("streamId", stream_id)));
  std::string out = response_to_json(head);
  out.pop_back();  // the envelope's '}': streamId follows its fields, as Go embeds them
  out.append(",\"streamId\":");
  append_json_string(out, stream_id);
  out.push_back('}');
  return rt.returned().keep(head.id, std::move(out));
}

char* read_stream(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("readStream"));
  auto input = parse_stream_input(view_of(json), "ReadStreamInput");
  if (!input) return keep_error(std::nullopt, input.error());
  Runtime& rt = Runtime::get();
  auto stream = rt.streams().find(input->stream_id);
  if (!stream) {
    BodyStream::Piece p{BodyStream::Piece::Kind::error, unknown_stream(input->stream_id).message};
    return keep_chunk(input->stream_id, p, ErrorCode::invalid_input);
  }
  // Go's int is 64 bits; a wait longer than an int's milliseconds is for ever.
  const int64_t t = input->timeout_ms;
  const int timeout = t < 0 ? -1 : t > INT32_MAX ? INT32_MAX : static_cast<int>(t);
  BodyStream::Piece piece = stream->read(timeout);
  std::optional<ErrorCode> code;
  if (piece.kind == BodyStream::Piece::Kind::eof || piece.kind == BodyStream::Piece::Kind::error) {
    // The stream is over: its id names nothing from now on.
    rt.streams().remove(input->stream_id);
    code = stream->error_code();
  }
  return keep_chunk(input->stream_id, piece, code);
}

char* read_stream_all(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("readStreamAll"));
  auto input = parse_stream_input(view_of(json), "ReadStreamAllInput");
  if (!input) return keep_error(std::nullopt, input.error());
  Runtime& rt = Runtime::get();
  auto stream = rt.streams().find(input->stream_id);
  if (!stream) return keep_error(std::nullopt, unknown_stream(input->stream_id));
  auto all = stream->read_all();
  rt.streams().remove(input->stream_id);
  // Upstream answers a failed drain without the session id.
  if (!all) return keep_error(std::nullopt, all.error());
  all->id = new_uuid();
  return keep_response(*all);
}

char* cancel_stream(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("cancelStream"));
  auto input = parse_stream_input(view_of(json), "CancelStreamInput");
  if (!input) return keep_error(std::nullopt, input.error());
  if (auto stream = Runtime::get().streams().remove(input->stream_id)) stream->cancel();
  return keep_success(true);
}

char* cancel_request(const char* json) {
  if (json == nullptr) return keep_error(std::nullopt, null_input("cancelRequest"));
  auto input = parse_cancel_request_input(view_of(json));
  if (!input) return keep_error(std::nullopt, input.error());
  return keep_success(Runtime::get().async_requests().cancel(input->id));
}

void end_all_streams() {
  for (auto& stream : Runtime::get().streams().remove_all()) stream->cancel();
}

}  // namespace tlsc
