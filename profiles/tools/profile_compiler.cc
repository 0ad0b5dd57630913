// Build-time tool: checks every profile file with the library's own parser
// (src/profiles/profile_parser.cc) and writes the C++ source that compiles
// them into the library. A malformed file fails the build with
// "<file>: <field>: <reason>".
//
//   profile_compiler OUT.cc profiles/a.json profiles/b.json ...
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "profiles/profile.h"

namespace {

constexpr const char* kDelimiter = "tlscprofile";

bool read_file(const char* path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  out = s.str();
  return static_cast<bool>(in) || in.eof();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUT.cc PROFILE.json...\n", argv[0]);
    return 2;
  }
  std::ostringstream code;
  code << "// Generated from profiles/*.json by profile_compiler; do not edit.\n"
          "#include <cstddef>\n"
          "namespace tlsc {\n"
          "extern const char* const kBuiltinProfileTexts[];\n"
          "extern const size_t kBuiltinProfileCount;\n"
          "const char* const kBuiltinProfileTexts[] = {\n";
  std::set<std::string> ids;
  bool ok = true;
  for (int i = 2; i < argc; ++i) {
    std::string text;
    if (!read_file(argv[i], text)) {
      std::fprintf(stderr, "%s: cannot read\n", argv[i]);
      ok = false;
      continue;
    }
    auto p = tlsc::parse_profile(text);
    if (!p) {
      std::fprintf(stderr, "%s: %s\n", argv[i], p.error().message.c_str());
      ok = false;
      continue;
    }
    std::vector<std::string> names = p->aliases;
    names.push_back(p->name);
    for (const auto& n : names) {
      if (!ids.insert(n).second) {
        std::fprintf(stderr, "%s: identifier %s is defined twice among the built-in profiles\n", argv[i],
                     n.c_str());
        ok = false;
      }
    }
    if (text.find(std::string(")") + kDelimiter + "\"") != std::string::npos) {
      std::fprintf(stderr, "%s: contains the raw-string delimiter\n", argv[i]);
      ok = false;
      continue;
    }
    code << "R\"" << kDelimiter << "(" << text << ")" << kDelimiter << "\",\n";
  }
  if (ids.count("chrome_133") == 0) {
    std::fprintf(stderr, "profiles: chrome_133 (upstream's default) is missing\n");
    ok = false;
  }
  if (!ok) return 1;
  code << "};\nconst size_t kBuiltinProfileCount = " << (argc - 2) << ";\n}  // namespace tlsc\n";
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out << code.str();
  out.close();
  if (!out) {
    // The folder missing, a full disk: say so, never fail silently.
    std::fprintf(stderr, "%s: cannot write: %s\n", argv[1], std::strerror(errno));
    return 1;
  }
  return 0;
}
