// The body's way out of the library, stage by stage, in ns per byte: from
// the decoded body to the JSON string a binding gets (charset conversion,
// the JSON string escape, base64 for isByteResponse, the whole response
// JSON). Single thread, no network; the best of a bounded number of rounds.
// Run: build/body_path_bench [bytes] (default 262144). bench/README.md says
// what the numbers were.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <memory>
#include <string>
#include <vector>

#include "abi/json_string.h"
#include "abi/json_writer.h"
#include "charset/charset.h"
#include "core/base64.h"

namespace {

std::string make_body(const char* kind, size_t size) {
  std::mt19937 rng(1);
  std::string s;
  s.reserve(size + 8);
  // Prose with some markup and JSON in it: about one byte in 7 needs a
  // JSON escape, as in HTML pages and API answers.
  const std::string words[] = {"lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "{\"k\":\"v\"} ", "<a href=x>", "\n"};
  const std::string utf8[] = {"caf\xc3\xa9 ", "na\xc3\xafve ", "\xe2\x82\xac ", "\xe6\x97\xa5\xe6\x9c\xac ",
                              "\xf0\x9f\x98\x80 "};
  // A Russian page: Cyrillic words (two bytes a letter) between markup.
  const std::string cyrillic[] = {"\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 ",
                                  "\xd0\xbc\xd0\xb8\xd1\x80 ",
                                  "\xd1\x82\xd0\xb5\xd0\xba\xd1\x81\xd1\x82 ",
                                  "<p class=\"x\">",
                                  "</p>\n"};
  while (s.size() < size) {
    if (std::string(kind) == "cyrillic") {
      s += cyrillic[rng() % 5];
    } else if (std::string(kind) == "binary") {
      s.push_back(static_cast<char>(rng() & 0xff));
    } else if (std::string(kind) == "utf8" && rng() % 3 == 0) {
      s += utf8[rng() % 5];
    } else {
      s += words[rng() % 8];
    }
  }
  s.resize(size);
  if (std::string(kind) == "cyrillic") {  // no letter cut in half at the end
    while (!s.empty() && static_cast<unsigned char>(s.back()) >= 0x80) s.pop_back();
    s.resize(size, ' ');
  }
  return s;
}

// Best time of up to 200 rounds or 2 s, whichever comes first.
double best_ns(const std::function<size_t()>& run) {
  using clock = std::chrono::steady_clock;
  double best = 1e30;
  volatile size_t sink = 0;
  const auto stop = clock::now() + std::chrono::seconds(2);
  for (int round = 0; round < 200 && clock::now() < stop; ++round) {
    auto t0 = clock::now();
    sink = sink + run();
    best = std::min(best, std::chrono::duration<double, std::nano>(clock::now() - t0).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t size = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 262144;
  std::printf("%-8s %-38s %10s %10s\n", "body", "stage", "ns/byte", "MB/s");
  for (const char* kind : {"ascii", "utf8", "cyrillic", "binary"}) {
    const std::string body = make_body(kind, size);
    tlsc::Response r;
    r.id = "00000000-0000-0000-0000-000000000000";
    r.status = 200;
    r.target = "https://example.com/";
    r.used_protocol = "HTTP/2.0";
    r.headers.emplace();
    r.headers->push_back({"Content-Type", {"text/plain; charset=utf-8"}});
    r.cookies.emplace();
    r.body = body;
    tlsc::Response with_base64 = r;
    with_base64.body = tlsc::base64_encode(body);
    struct Stage {
      const char* name;
      std::function<size_t()> run;
    };
    // The JSON string's size pass and write, through one version: the one
    // append_json_string picks is above; these compare the widths.
    auto json_with = [&](size_t (*size_of)(std::string_view), char* (*write)(char*, std::string_view)) {
      return [&body, size_of, write] {
        const size_t n = size_of(body);
        auto out = std::make_unique_for_overwrite<char[]>(n);
        return static_cast<size_t>(write(out.get(), body) - out.get());
      };
    };
    std::vector<Stage> stages = {
        {"to_utf8 (charset=utf-8 declared)",
         [&] { return tlsc::charset::to_utf8(body, "text/plain; charset=utf-8").size(); }},
        {"to_utf8 (no charset: sniffed)", [&] { return tlsc::charset::to_utf8(body, "").size(); }},
        {"append_json_string", [&] {
           std::string out;
           out.reserve(body.size() + 2);
           tlsc::append_json_string(out, body);
           return out.size();
         }},
        {"base64_encode", [&] { return tlsc::base64_encode(body).size(); }},
        {"response_to_json", [&] { return tlsc::response_to_json(r).size(); }},
        {"response_to_json (base64 body)", [&] { return tlsc::response_to_json(with_base64).size(); }},
        {"json string, 16 bytes a step",
         json_with(tlsc::detail::json_string_size_vector, tlsc::detail::write_json_string_vector)},
        {"json string, 8 bytes a step (words)",
         json_with(tlsc::detail::json_string_size_words, tlsc::detail::write_json_string_words)},
    };
#if TLSC_JSON_STRING_AVX2
    if (tlsc::detail::json_string_avx2_in_use())
      stages.push_back({"json string, 32 bytes a step (AVX2)",
                        json_with(tlsc::detail::json_string_size_avx2, tlsc::detail::write_json_string_avx2)});
#endif
    for (const auto& s : stages) {
      double ns = best_ns(s.run);
      std::printf("%-8s %-38s %10.3f %10.0f\n", kind, s.name, ns / static_cast<double>(size),
                  static_cast<double>(size) / ns * 1e3);
    }
  }
  return 0;
}
