// tlsc::detect_content_type against Go's net/http.DetectContentType. Every
// expected type below is what Go returns for the same bytes.
#include "sniff/sniff.h"

#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

using namespace std::string_view_literals;

namespace {

struct Case {
  std::string data;
  std::string_view expected;
};

void check_cases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO("data: " << c.data);
    CHECK(tlsc::detect_content_type(c.data) == c.expected);
  }
}

}  // namespace

TEST_CASE("detect_content_type: HTML and XML", "[sniff]") {
  check_cases({
      // HTML doctype, case-insensitive
      {std::string("<!doctype HTML><p>"sv), "text/html; charset=utf-8"},
      // leading white space is skipped for HTML
      {std::string(" \x09\x0d\x0a\x0c<html>"sv), "text/html; charset=utf-8"},
      // tag must end with space or '>'
      {std::string("<htmlx>"sv), "text/plain; charset=utf-8"},
      // tag at the very end lacks its terminating byte
      {std::string("<html"sv), "text/plain; charset=utf-8"},
      // HTML signature <HEAD
      {std::string("<HEAD "sv), "text/html; charset=utf-8"},
      // HTML signature <script>
      {std::string("<script>"sv), "text/html; charset=utf-8"},
      // HTML signature <IFRAME
      {std::string("<IFRAME "sv), "text/html; charset=utf-8"},
      // HTML signature <h1>
      {std::string("<h1>"sv), "text/html; charset=utf-8"},
      // HTML signature <div>
      {std::string("<div>"sv), "text/html; charset=utf-8"},
      // HTML signature <font
      {std::string("<font "sv), "text/html; charset=utf-8"},
      // HTML signature <table>
      {std::string("<table>"sv), "text/html; charset=utf-8"},
      // HTML signature <a
      {std::string("<a "sv), "text/html; charset=utf-8"},
      // HTML signature <style>
      {std::string("<style>"sv), "text/html; charset=utf-8"},
      // HTML signature <title>
      {std::string("<title>"sv), "text/html; charset=utf-8"},
      // HTML signature <b>
      {std::string("<b>"sv), "text/html; charset=utf-8"},
      // HTML signature <body>
      {std::string("<body>"sv), "text/html; charset=utf-8"},
      // HTML signature <br>
      {std::string("<br>"sv), "text/html; charset=utf-8"},
      // HTML signature <p>
      {std::string("<p>"sv), "text/html; charset=utf-8"},
      // HTML signature <!--
      {std::string("<!-- "sv), "text/html; charset=utf-8"},
      // XML after white space
      {std::string("\x0a<?xml version='1.0'?>"sv), "text/xml; charset=utf-8"},
      // HTML signature cut by the 512-byte limit
      {std::string(507, ' ') + std::string("<html>"sv), "text/plain; charset=utf-8"},
      // HTML signature ending exactly at 512 bytes
      {std::string(506, ' ') + std::string("<html>"sv), "text/html; charset=utf-8"},
  });
}

TEST_CASE("detect_content_type: documents, byte order marks and images", "[sniff]") {
  check_cases({
      // PDF
      {std::string("%PDF-1.7"sv), "application/pdf"},
      // PDF signature must be at byte 0
      {std::string(" %PDF-1.7"sv), "text/plain; charset=utf-8"},
      // PostScript
      {std::string("%!PS-Adobe-3.0"sv), "application/postscript"},
      // UTF-16BE BOM
      {std::string("\xfe\xff\x00"
                   "A"sv),
       "text/plain; charset=utf-16be"},
      // UTF-16LE BOM
      {std::string("\xff\xfe"
                   "A\x00"sv),
       "text/plain; charset=utf-16le"},
      // UTF-8 BOM
      {std::string("\xef\xbb\xbf"
                   "A"sv),
       "text/plain; charset=utf-8"},
      // UTF-16 BOM needs four bytes
      {std::string("\xfe\xff\x00"sv), "application/octet-stream"},
      // ICO
      {std::string("\x00\x00\x01\x00\x01"sv), "image/x-icon"},
      // CUR
      {std::string("\x00\x00\x02\x00"sv), "image/x-icon"},
      // BMP
      {std::string("BM\x00\x00"sv), "image/bmp"},
      // GIF87a
      {std::string("GIF87a"sv), "image/gif"},
      // GIF89a
      {std::string("GIF89a\x01"sv), "image/gif"},
      // WebP
      {std::string("RIFF\x01\x02\x03\x04WEBPVP8 "sv), "image/webp"},
      // PNG
      {std::string("\x89PNG\x0d\x0a\x1a\x0a\x00"sv), "image/png"},
      // JPEG
      {std::string("\xff\xd8\xff\xe0"sv), "image/jpeg"},
  });
}

TEST_CASE("detect_content_type: audio and video", "[sniff]") {
  check_cases({
      // AIFF
      {std::string("FORM\x00\x00\x00\x10"
                   "AIFF"sv),
       "audio/aiff"},
      // MP3 with ID3
      {std::string("ID3\x04\x00"sv), "audio/mpeg"},
      // Ogg
      {std::string("OggS\x00\x02"sv), "application/ogg"},
      // MIDI
      {std::string("MThd\x00\x00\x00\x06\x00\x01"sv), "audio/midi"},
      // AVI
      {std::string("RIFF\x00\x00\x00\x00"
                   "AVI LIST"sv),
       "video/avi"},
      // WAVE
      {std::string("RIFF$\x00\x00\x00WAVEfmt "sv), "audio/wave"},
      // MP4: ftyp box with an mp4 brand
      {std::string("\x00\x00\x00\x18"
                   "ftypisom\x00\x00\x02\x00iso2mp41"sv),
       "video/mp4"},
      // MP4: the minor version is not a brand
      {std::string("\x00\x00\x00\x10"
                   "ftypisommp42"sv),
       "application/octet-stream"},
      // MP4: box larger than the data
      {std::string("\x00\x00\x00 ftypmp42\x00\x00\x00\x00mp41"sv), "application/octet-stream"},
      // WebM
      {std::string("\x1a"
                   "E\xdf\xa3\x01"sv),
       "video/webm"},
  });
}

TEST_CASE("detect_content_type: fonts, archives and wasm", "[sniff]") {
  check_cases({
      // EOT: 34 ignored bytes then LP
      {std::string(
           "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f !\"LP"sv),
       "application/vnd.ms-fontobject"},
      // TrueType
      {std::string("\x00\x01\x00\x00\x00"sv), "font/ttf"},
      // OpenType
      {std::string("OTTO\x00"sv), "font/otf"},
      // font collection
      {std::string("ttcf\x00"sv), "font/collection"},
      // WOFF
      {std::string("wOFF\x00"sv), "font/woff"},
      // WOFF2
      {std::string("wOF2\x00"sv), "font/woff2"},
      // gzip
      {std::string("\x1f\x8b\x08\x00"sv), "application/x-gzip"},
      // zip
      {std::string("PK\x03\x04\x14"sv), "application/zip"},
      // RAR 1.5-4.0
      {std::string("Rar!\x1a\x07\x00"sv), "application/x-rar-compressed"},
      // RAR 5
      {std::string("Rar!\x1a\x07\x01\x00"sv), "application/x-rar-compressed"},
      // wasm
      {std::string("\x00"
                   "asm\x01\x00\x00\x00"sv),
       "application/wasm"},
  });
}

TEST_CASE("detect_content_type: text versus binary and the 512-byte limit", "[sniff]") {
  check_cases({
      // empty input is text
      {std::string(""sv), "text/plain; charset=utf-8"},
      // text with tabs, newlines, ESC and high bytes
      {std::string("a\x09"
                   "b\x0d\x0a"
                   "c\x1b\xff"sv),
       "text/plain; charset=utf-8"},
      // a control byte makes it binary
      {std::string("abc\x01"sv), "application/octet-stream"},
      // NUL makes it binary
      {std::string("abc\x00"sv), "application/octet-stream"},
      // only the first 512 bytes are examined
      {std::string(512, 'a') + std::string("\x00"sv), "text/plain; charset=utf-8"},
      // a control byte at offset 511 still counts
      {std::string(511, 'a') + std::string("\x00"sv), "application/octet-stream"},
  });
}
