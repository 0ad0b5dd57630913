// Our nghttp3 patches that no client test reaches (packaging/nghttp3):
// 0003, a server reading a client's control stream whose PRIORITY_UPDATE
// frame is split right after its element id. Without the patch nghttp3
// 0.8 fails an assertion there and the process aborts.
#include <nghttp3/nghttp3.h>

#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

TEST_CASE("nghttp3 patch 0003: a PRIORITY_UPDATE split after its element id is read whole",
          "[quic][nghttp3]") {
  nghttp3_callbacks callbacks{};
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  nghttp3_conn* conn = nullptr;
  REQUIRE(nghttp3_conn_server_new(&conn, &callbacks, &settings, nghttp3_mem_default(), nullptr) == 0);
  nghttp3_conn_set_max_client_streams_bidi(conn, 100);

  // The client's control stream (id 2): its type, an empty SETTINGS frame,
  // then PRIORITY_UPDATE (type 0xf0700) for request stream 0 saying
  // "u=0, i", as Chrome sends after a request.
  const std::string value = "u=0, i";
  std::string head = std::string("\x00\x04\x00", 3) + std::string("\x80\x0f\x07\x00", 4);
  head.push_back(static_cast<char>(1 + value.size()));  // length: element id + field value
  head.push_back('\x00');                               // element id 0
  const auto read = [&](const std::string& bytes) {
    return nghttp3_conn_read_stream(conn, 2, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), 0);
  };
  // The first read ends right after the element id; the value follows.
  CHECK(read(head) == static_cast<nghttp3_ssize>(head.size()));
  CHECK(read(value) == static_cast<nghttp3_ssize>(value.size()));
  // The same frame whole in one read still works after it.
  CHECK(read(head.substr(3) + value) == static_cast<nghttp3_ssize>(head.size() - 3 + value.size()));
  nghttp3_conn_del(conn);
}
