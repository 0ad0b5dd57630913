// Every profile the library knows, by identifier or alias: the built-in
// files compiled in from profiles/*.json, then the *.json files of the
// directory named by TLS_CLIENT_PROFILES_DIR, read once when the registry is
// first used. Immutable after that, so readers need no lock.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profiles/profile.h"

namespace tlsc {

// The profile for an identifier or alias; an unknown identifier gets
// upstream's default, chrome_133. The reference lives as long as the process.
const Profile& find_profile(std::string_view identifier);

// nullptr when no profile has this identifier or alias.
const Profile* lookup_profile(std::string_view identifier);

// Every profile, built-in ones first (in file-name order), then the user's.
const std::vector<Profile>& all_profiles();

// One problem with a user's profile file: the file was skipped.
struct ProfileLoadProblem {
  std::string file;
  std::string reason;
};

// What a registry is built from (exposed for the tests): the built-in texts
// and a user directory ("" for none). Problems with user files are returned,
// and the file skipped; a built-in file that fails is a build error, so it
// cannot happen here.
struct ProfileSet {
  std::vector<Profile> profiles;
  std::vector<ProfileLoadProblem> problems;
  const Profile* find(std::string_view identifier) const;
};
ProfileSet load_profile_set(const std::vector<std::string_view>& builtin_texts, const std::string& user_dir);

// The compiled-in profile texts (generated from profiles/*.json).
std::vector<std::string_view> builtin_profile_texts();

}  // namespace tlsc
