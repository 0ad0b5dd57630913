#include "sniff/sniff.h"

#include <array>
#include <cstdint>
#include <variant>

namespace tlsc {
namespace {

constexpr std::size_t kSniffLen = 512;

int byte_at(std::string_view s, std::size_t i) {
  return i < s.size() ? static_cast<unsigned char>(s[i]) : -1;
}

bool is_ws(int b) { return b == '\t' || b == '\n' || b == '\x0c' || b == '\r' || b == ' '; }

// "<TAG" matched case-insensitively after leading white space, then a
// tag-terminating byte (space or '>').
struct HtmlSig {
  std::string_view pattern;
};

// Every byte of data & mask must equal pattern; optionally after leading
// white space.
struct MaskedSig {
  std::string_view mask;
  std::string_view pattern;
  bool skip_ws;
  std::string_view type;
};

struct ExactSig {
  std::string_view prefix;
  std::string_view type;
};

struct Mp4Sig {};
struct TextSig {};

using Sig = std::variant<HtmlSig, MaskedSig, ExactSig, Mp4Sig, TextSig>;

using namespace std::string_view_literals;

// Go's sniffSignatures, in Go's order: the first match wins.
const std::array kSignatures = {
    Sig{HtmlSig{"<!DOCTYPE HTML"}},
    Sig{HtmlSig{"<HTML"}},
    Sig{HtmlSig{"<HEAD"}},
    Sig{HtmlSig{"<SCRIPT"}},
    Sig{HtmlSig{"<IFRAME"}},
    Sig{HtmlSig{"<H1"}},
    Sig{HtmlSig{"<DIV"}},
    Sig{HtmlSig{"<FONT"}},
    Sig{HtmlSig{"<TABLE"}},
    Sig{HtmlSig{"<A"}},
    Sig{HtmlSig{"<STYLE"}},
    Sig{HtmlSig{"<TITLE"}},
    Sig{HtmlSig{"<B"}},
    Sig{HtmlSig{"<BODY"}},
    Sig{HtmlSig{"<BR"}},
    Sig{HtmlSig{"<P"}},
    Sig{HtmlSig{"<!--"}},
    Sig{MaskedSig{"\xFF\xFF\xFF\xFF\xFF"sv, "<?xml"sv, true, "text/xml; charset=utf-8"}},
    Sig{ExactSig{"%PDF-"sv, "application/pdf"}},
    Sig{ExactSig{"%!PS-Adobe-"sv, "application/postscript"}},
    // UTF BOMs.
    Sig{MaskedSig{"\xFF\xFF\x00\x00"sv, "\xFE\xFF\x00\x00"sv, false, "text/plain; charset=utf-16be"}},
    Sig{MaskedSig{"\xFF\xFF\x00\x00"sv, "\xFF\xFE\x00\x00"sv, false, "text/plain; charset=utf-16le"}},
    Sig{MaskedSig{"\xFF\xFF\xFF\x00"sv, "\xEF\xBB\xBF\x00"sv, false, "text/plain; charset=utf-8"}},
    // Images.
    Sig{ExactSig{"\x00\x00\x01\x00"sv, "image/x-icon"}},
    Sig{ExactSig{"\x00\x00\x02\x00"sv, "image/x-icon"}},
    Sig{ExactSig{"BM"sv, "image/bmp"}},
    Sig{ExactSig{"GIF87a"sv, "image/gif"}},
    Sig{ExactSig{"GIF89a"sv, "image/gif"}},
    Sig{MaskedSig{"\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF\xFF\xFF"sv,
                  "RIFF\x00\x00\x00\x00"
                  "WEBPVP"sv,
                  false, "image/webp"}},
    Sig{ExactSig{"\x89PNG\x0D\x0A\x1A\x0A"sv, "image/png"}},
    Sig{ExactSig{"\xFF\xD8\xFF"sv, "image/jpeg"}},
    // Audio and video, in the spec's order.
    Sig{MaskedSig{"\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF"sv,
                  "FORM\x00\x00\x00\x00"
                  "AIFF"sv,
                  false, "audio/aiff"}},
    Sig{MaskedSig{"\xFF\xFF\xFF"sv, "ID3"sv, false, "audio/mpeg"}},
    Sig{MaskedSig{"\xFF\xFF\xFF\xFF\xFF"sv, "OggS\x00"sv, false, "application/ogg"}},
    Sig{MaskedSig{"\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF"sv, "MThd\x00\x00\x00\x06"sv, false, "audio/midi"}},
    Sig{MaskedSig{"\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF"sv,
                  "RIFF\x00\x00\x00\x00"
                  "AVI "sv,
                  false, "video/avi"}},
    Sig{MaskedSig{"\xFF\xFF\xFF\xFF\x00\x00\x00\x00\xFF\xFF\xFF\xFF"sv,
                  "RIFF\x00\x00\x00\x00"
                  "WAVE"sv,
                  false, "audio/wave"}},
    Sig{Mp4Sig{}},
    Sig{ExactSig{"\x1A\x45\xDF\xA3"sv, "video/webm"}},
    // Fonts: 34 ignored bytes, then "LP".
    Sig{MaskedSig{"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
                  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
                  "\xFF\xFF"sv,
                  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
                  "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
                  "LP"sv,
                  false, "application/vnd.ms-fontobject"}},
    Sig{ExactSig{"\x00\x01\x00\x00"sv, "font/ttf"}},
    Sig{ExactSig{"OTTO"sv, "font/otf"}},
    Sig{ExactSig{"ttcf"sv, "font/collection"}},
    Sig{ExactSig{"wOFF"sv, "font/woff"}},
    Sig{ExactSig{"wOF2"sv, "font/woff2"}},
    // Archives. RAR follows RAR Labs, not the (wrong) MIME sniffing spec.
    Sig{ExactSig{"\x1F\x8B\x08"sv, "application/x-gzip"}},
    Sig{ExactSig{"PK\x03\x04"sv, "application/zip"}},
    Sig{ExactSig{"Rar!\x1A\x07\x00"sv, "application/x-rar-compressed"}},
    Sig{ExactSig{"Rar!\x1A\x07\x01\x00"sv, "application/x-rar-compressed"}},
    Sig{ExactSig{"\x00\x61\x73\x6D"sv, "application/wasm"}},
    Sig{TextSig{}},
};

struct Matcher {
  std::string_view data;
  std::size_t first_non_ws;

  std::string_view operator()(const HtmlSig& sig) const {
    const std::string_view d = data.substr(first_non_ws);
    if (d.size() < sig.pattern.size() + 1) return {};
    for (std::size_t i = 0; i < sig.pattern.size(); ++i) {
      const int want = byte_at(sig.pattern, i);
      int got = byte_at(d, i);
      if (want >= 'A' && want <= 'Z') got &= 0xDF;
      if (got != want) return {};
    }
    const int tt = byte_at(d, sig.pattern.size());
    if (tt != ' ' && tt != '>') return {};
    return "text/html; charset=utf-8";
  }

  std::string_view operator()(const MaskedSig& sig) const {
    const std::string_view d = sig.skip_ws ? data.substr(first_non_ws) : data;
    if (d.size() < sig.pattern.size()) return {};
    for (std::size_t i = 0; i < sig.pattern.size(); ++i) {
      if ((byte_at(d, i) & byte_at(sig.mask, i)) != byte_at(sig.pattern, i)) return {};
    }
    return sig.type;
  }

  std::string_view operator()(const ExactSig& sig) const {
    return data.starts_with(sig.prefix) ? sig.type : std::string_view();
  }

  // An ftyp box whose size fits in the data and whose brands (major or
  // compatible, skipping the minor version) include one starting "mp4".
  std::string_view operator()(const Mp4Sig&) const {
    if (data.size() < 12) return {};
    const std::uint32_t box = static_cast<std::uint32_t>(byte_at(data, 0)) << 24 |
                              static_cast<std::uint32_t>(byte_at(data, 1)) << 16 |
                              static_cast<std::uint32_t>(byte_at(data, 2)) << 8 |
                              static_cast<std::uint32_t>(byte_at(data, 3));
    if (data.size() < box || box % 4 != 0) return {};
    if (data.substr(4, 4) != "ftyp") return {};
    for (std::size_t st = 8; st < box; st += 4) {
      if (st == 12) continue;
      if (data.substr(st, 3) == "mp4") return "video/mp4";
    }
    return {};
  }

  // No binary control bytes after the leading white space.
  std::string_view operator()(const TextSig&) const {
    for (std::size_t i = first_non_ws; i < data.size(); ++i) {
      const int b = byte_at(data, i);
      if (b <= 0x08 || b == 0x0B || (b >= 0x0E && b <= 0x1A) || (b >= 0x1C && b <= 0x1F)) {
        return {};
      }
    }
    return "text/plain; charset=utf-8";
  }
};

}  // namespace

std::string detect_content_type(std::string_view data) {
  data = data.substr(0, std::min(data.size(), kSniffLen));
  std::size_t first_non_ws = 0;
  while (first_non_ws < data.size() && is_ws(byte_at(data, first_non_ws))) ++first_non_ws;
  const Matcher match{data, first_non_ws};
  for (const Sig& sig : kSignatures) {
    const std::string_view type = std::visit(match, sig);
    if (!type.empty()) return std::string(type);
  }
  return "application/octet-stream";
}

}  // namespace tlsc
