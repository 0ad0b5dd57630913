// platform/file.h: streamOutputPath's file writes, by a UTF-8 name on every
// OS (Windows turns it into UTF-16; its ANSI code page would garble it).
#include "platform/file.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include <catch2/catch.hpp>

namespace {

std::filesystem::path scratch_dir() {
  std::random_device rd;
  auto dir = std::filesystem::temp_directory_path() / ("tlsc-file-test-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("append_to_file: a UTF-8 file name is the file's name, blocks and trailer appended", "[file]") {
  const auto dir = scratch_dir();
  const std::u8string name = u8"t\u00e9l\u00e9chargement-\u0444\u0430\u0439\u043b.txt";
  const std::filesystem::path native = dir / name;
  std::string utf8_path = (dir / "").string();
  utf8_path.append(reinterpret_cast<const char*>(name.data()), name.size());

  REQUIRE_FALSE(tlsc::append_to_file(utf8_path, "hello, ", 3, "").has_value());
  REQUIRE_FALSE(tlsc::append_to_file(utf8_path, "world", 2, "\n--end--").has_value());
  REQUIRE(std::filesystem::exists(native));  // by its name, read without our code
  std::string got;
  {
    std::ifstream in(native, std::ios::binary);  // closed before the removal: Windows refuses an open file's
    got.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  CHECK(got == "hello, world\n--end--");
  std::filesystem::remove_all(dir);
}

TEST_CASE("append_to_file: a folder that does not exist is an error in the normal shape", "[file]") {
  const auto dir = scratch_dir();
  const std::string path = (dir / "missing" / "out.txt").string();
  auto err = tlsc::append_to_file(path, "x", 1, "");
  REQUIRE(err.has_value());
  CHECK(err->code == tlsc::ErrorCode::file);
  CHECK(err->message.rfind("open " + path + ": ", 0) == 0);
  std::filesystem::remove_all(dir);
}
