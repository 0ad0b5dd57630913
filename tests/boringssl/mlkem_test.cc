// ML-KEM-768 (FIPS 203) in our BoringSSL: packaging/boringssl/patches/
// 0010-mlkem768.patch. Needs the patched headers (<openssl/mlkem.h>,
// <openssl/keccak.h>), libcrypto.a and zlib.
//
//  - the accumulated test of /work/shared/testdata/ml-kem-768/SOURCE.md
//    (10,000 deterministic KeyGen/Encaps/Decaps rounds in one SHAKE-128 hash);
//  - every encapsulation key in data/modulus-ML-KEM-768.txt.gz is rejected
//    (FIPS 203 input validation);
//  - round trips, serialisation and its checks, implicit rejection,
//    incremental SHAKE;
//  - differential test against npm @noble/post-quantum (mlkem_noble/), both
//    ways, on random inputs. Skipped with a warning when node or the
//    package's node_modules is missing (`npm ci` in mlkem_noble/).
//
// TLSC_TEST_DATA_DIR is the folder with the test data (tests/boringssl/data);
// TLSC_MLKEM_NOBLE_DIR the folder with the Node script (default: next to it).

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <openssl/bytestring.h>
#include <openssl/keccak.h>
#include <openssl/mlkem.h>
#include <openssl/rand.h>
#include <zlib.h>

#ifndef TLSC_TEST_DATA_DIR
#define TLSC_TEST_DATA_DIR "tests/boringssl/data"
#endif
#ifndef TLSC_MLKEM_NOBLE_DIR
#define TLSC_MLKEM_NOBLE_DIR TLSC_TEST_DATA_DIR "/../mlkem_noble"
#endif

namespace {

using Bytes = std::vector<uint8_t>;

std::string to_hex(const uint8_t* p, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * n);
  for (size_t i = 0; i < n; i++) {
    s.push_back(kDigits[p[i] >> 4]);
    s.push_back(kDigits[p[i] & 15]);
  }
  return s;
}
std::string to_hex(const Bytes& b) { return to_hex(b.data(), b.size()); }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// from_hex decodes |s| or returns false if it is not even-length hex.
bool from_hex(const std::string& s, Bytes* out) {
  if (s.size() % 2 != 0) return false;
  out->resize(s.size() / 2);
  for (size_t i = 0; i < out->size(); i++) {
    int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    (*out)[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

Bytes from_hex(const std::string& s) {
  Bytes b;
  REQUIRE(from_hex(s, &b));
  return b;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t end = s.find(sep, start);
    parts.push_back(s.substr(start, end == std::string::npos ? end : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

// Shake128 is BoringSSL's SHAKE-128, used both as a deterministic random
// stream (absorb, then squeeze) and as a running hash.
class Shake128 {
 public:
  Shake128() { BORINGSSL_keccak_absorb_init(&ctx_, boringssl_shake128); }
  void absorb(const uint8_t* p, size_t n) { BORINGSSL_keccak_absorb(&ctx_, p, n); }
  void absorb(const Bytes& b) { absorb(b.data(), b.size()); }
  void squeeze(uint8_t* p, size_t n) { BORINGSSL_keccak_squeeze(&ctx_, p, n); }
  Bytes squeeze(size_t n) {
    Bytes b(n);
    squeeze(b.data(), n);
    return b;
  }

 private:
  BORINGSSL_keccak_st ctx_;
};

Bytes marshal_private(const MLKEM768_private_key& priv) {
  CBB cbb;
  REQUIRE(CBB_init(&cbb, MLKEM768_PRIVATE_KEY_BYTES));
  REQUIRE(MLKEM768_marshal_private_key(&cbb, &priv));
  Bytes dk(CBB_data(&cbb), CBB_data(&cbb) + CBB_len(&cbb));
  CBB_cleanup(&cbb);
  return dk;
}

Bytes marshal_public(const MLKEM768_public_key& pub) {
  CBB cbb;
  REQUIRE(CBB_init(&cbb, MLKEM768_PUBLIC_KEY_BYTES));
  REQUIRE(MLKEM768_marshal_public_key(&cbb, &pub));
  Bytes ek(CBB_data(&cbb), CBB_data(&cbb) + CBB_len(&cbb));
  CBB_cleanup(&cbb);
  return ek;
}

bool parse_public(const Bytes& ek, MLKEM768_public_key* pub) {
  CBS cbs;
  CBS_init(&cbs, ek.data(), ek.size());
  return MLKEM768_parse_public_key(pub, &cbs) == 1;
}

bool parse_private(const Bytes& dk, MLKEM768_private_key* priv) {
  CBS cbs;
  CBS_init(&cbs, dk.data(), dk.size());
  return MLKEM768_parse_private_key(priv, &cbs) == 1;
}

struct KeyPair {
  Bytes ek, dk;
  std::unique_ptr<MLKEM768_private_key> priv{new MLKEM768_private_key};
};

KeyPair keygen_from_seed(const Bytes& seed) {
  REQUIRE(seed.size() == MLKEM_SEED_BYTES);
  KeyPair kp;
  kp.ek.resize(MLKEM768_PUBLIC_KEY_BYTES);
  MLKEM768_generate_key_external_seed(kp.ek.data(), kp.priv.get(), seed.data());
  kp.dk = marshal_private(*kp.priv);
  return kp;
}

struct Encapsulation {
  Bytes ct, ss;
};

Encapsulation encap(const MLKEM768_public_key& pub, const Bytes& m) {
  REQUIRE(m.size() == MLKEM_ENCAP_ENTROPY);
  Encapsulation e{Bytes(MLKEM768_CIPHERTEXT_BYTES), Bytes(MLKEM_SHARED_SECRET_BYTES)};
  MLKEM768_encap_external_entropy(e.ct.data(), e.ss.data(), &pub, m.data());
  return e;
}

Bytes decap(const MLKEM768_private_key& priv, const Bytes& ct) {
  Bytes ss(MLKEM_SHARED_SECRET_BYTES);
  REQUIRE(MLKEM768_decap(ss.data(), ct.data(), ct.size(), &priv) == 1);
  return ss;
}

// J(z || c) of FIPS 203: SHAKE-256, 32 bytes.
Bytes implicit_rejection_key(const Bytes& z, const Bytes& ct) {
  Bytes input = z;
  input.insert(input.end(), ct.begin(), ct.end());
  Bytes out(32);
  BORINGSSL_keccak(out.data(), out.size(), input.data(), input.size(), boringssl_shake256);
  return out;
}

// set_coefficient12 writes |value| (< 4096) as the |index|th 12-bit value of
// the ByteEncode12 encoding at |p|.
void set_coefficient12(uint8_t* p, size_t index, uint16_t value) {
  uint8_t* b = p + 3 * (index / 2);
  if (index % 2 == 0) {
    b[0] = static_cast<uint8_t>(value);
    b[1] = static_cast<uint8_t>((b[1] & 0xf0) | (value >> 8));
  } else {
    b[1] = static_cast<uint8_t>((b[1] & 0x0f) | ((value & 0x0f) << 4));
    b[2] = static_cast<uint8_t>(value >> 4);
  }
}

Bytes random_bytes(size_t n) {
  Bytes b(n);
  REQUIRE(RAND_bytes(b.data(), n) == 1);
  return b;
}

bool file_exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

}  // namespace

TEST_CASE("SHAKE: incremental absorb equals one-shot", "[boringssl][mlkem]") {
  Bytes input(1000);
  for (size_t i = 0; i < input.size(); i++) input[i] = static_cast<uint8_t>(i * 7 + 3);
  // The stream of SHAKE-128 over empty input starts 7f9c2ba4e88f827d...
  {
    Shake128 empty;
    CHECK(to_hex(empty.squeeze(16)) == "7f9c2ba4e88f827d616045507605853e");
  }
  for (auto config : {boringssl_shake128, boringssl_shake256}) {
    for (size_t len : {0, 1, 135, 136, 137, 167, 168, 169, 336, 500, 1000}) {
      Bytes expected(300);
      BORINGSSL_keccak(expected.data(), expected.size(), input.data(), len, config);
      for (size_t chunk : {1, 7, 136, 168, 1000}) {
        BORINGSSL_keccak_st ctx;
        BORINGSSL_keccak_absorb_init(&ctx, config);
        for (size_t off = 0; off < len; off += chunk) {
          BORINGSSL_keccak_absorb(&ctx, input.data() + off, std::min(chunk, len - off));
        }
        Bytes got(300);
        BORINGSSL_keccak_squeeze(&ctx, got.data(), 100);  // squeeze in pieces too
        BORINGSSL_keccak_squeeze(&ctx, got.data() + 100, 200);
        INFO("config " << config << " len " << len << " chunk " << chunk);
        CHECK(got == expected);
      }
    }
  }
}

TEST_CASE("ML-KEM-768: accumulated test, 10,000 rounds", "[boringssl][mlkem]") {
  // /work/shared/testdata/ml-kem-768/SOURCE.md (C2SP CCTV, ML-KEM/accumulated).
  constexpr int kRounds = 10000;
  const char kExpected[] = "f959d18d3d1180121433bf0e05f11e7908cf9d03edc150b2b07cb90bef5bc1c1";

  Shake128 rng;  // SHAKE-128 of the empty string, squeezed
  Shake128 acc;  // running hash
  MLKEM768_private_key priv;
  MLKEM768_public_key pub;
  uint8_t seed[MLKEM_SEED_BYTES], m[MLKEM_ENCAP_ENTROPY], bad_ct[MLKEM768_CIPHERTEXT_BYTES];
  uint8_t ek[MLKEM768_PUBLIC_KEY_BYTES], ct[MLKEM768_CIPHERTEXT_BYTES];
  uint8_t k[MLKEM_SHARED_SECRET_BYTES], k2[MLKEM_SHARED_SECRET_BYTES], k3[MLKEM_SHARED_SECRET_BYTES];
  int mismatches = 0, failures = 0;
  for (int i = 0; i < kRounds; i++) {
    rng.squeeze(seed, sizeof(seed));  // d || z
    rng.squeeze(m, sizeof(m));
    rng.squeeze(bad_ct, sizeof(bad_ct));

    MLKEM768_generate_key_external_seed(ek, &priv, seed);
    CBS cbs;
    CBS_init(&cbs, ek, sizeof(ek));
    if (!MLKEM768_parse_public_key(&pub, &cbs)) failures++;
    MLKEM768_encap_external_entropy(ct, k, &pub, m);
    if (!MLKEM768_decap(k2, ct, sizeof(ct), &priv)) failures++;
    if (std::memcmp(k, k2, sizeof(k)) != 0) mismatches++;
    if (!MLKEM768_decap(k3, bad_ct, sizeof(bad_ct), &priv)) failures++;

    Bytes dk = marshal_private(priv);
    acc.absorb(ek, sizeof(ek));
    acc.absorb(dk);
    acc.absorb(ct, sizeof(ct));
    acc.absorb(k, sizeof(k));
    acc.absorb(k3, sizeof(k3));
  }
  CHECK(failures == 0);
  CHECK(mismatches == 0);
  CHECK(to_hex(acc.squeeze(32)) == kExpected);
}

namespace {

// read_modulus_keys returns the encapsulation keys (hex) of
// modulus-ML-KEM-768.txt.gz, read with zlib.
std::vector<std::string> read_modulus_keys() {
  const std::string path = TLSC_TEST_DATA_DIR "/modulus-ML-KEM-768.txt.gz";
  INFO("data file " << path << " (TLSC_TEST_DATA_DIR)");
  gzFile f = gzopen(path.c_str(), "rb");
  REQUIRE(f != nullptr);
  std::vector<std::string> keys;
  std::vector<char> line(8192);
  while (gzgets(f, line.data(), static_cast<int>(line.size())) != nullptr) {
    std::string s(line.data());
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    if (!s.empty()) keys.push_back(s);
  }
  int err = Z_OK;
  gzerror(f, &err);
  gzclose(f);
  REQUIRE(err == Z_OK);
  return keys;
}

}  // namespace

TEST_CASE("ML-KEM-768: encapsulation keys with a coefficient >= q are rejected", "[boringssl][mlkem]") {
  const std::vector<std::string> keys = read_modulus_keys();
  CHECK(keys.size() == 780);
  int accepted = 0;
  for (size_t i = 0; i < keys.size(); i++) {
    Bytes ek;
    REQUIRE(from_hex(keys[i], &ek));
    REQUIRE(ek.size() == MLKEM768_PUBLIC_KEY_BYTES);
    MLKEM768_public_key pub;
    if (parse_public(ek, &pub)) {
      accepted++;
      UNSCOPED_INFO("accepted: line " << i + 1);
    }
    // The same ek inside a private key, with its correct H(ek), is rejected
    // too: only the modulus check can reject that.
    if (i < 50) {
      KeyPair kp = keygen_from_seed(Bytes(64, static_cast<uint8_t>(i)));
      Bytes dk = kp.dk;
      std::copy(ek.begin(), ek.end(), dk.begin() + 1152);
      uint8_t h[32];
      BORINGSSL_keccak(h, sizeof(h), ek.data(), ek.size(), boringssl_sha3_256);
      std::copy(h, h + 32, dk.begin() + 1152 + 1184);
      MLKEM768_private_key priv;
      INFO("line " << i + 1 << " as part of a dk");
      CHECK_FALSE(parse_private(dk, &priv));
    }
  }
  CHECK(accepted == 0);
}

TEST_CASE("ML-KEM-768: round trips", "[boringssl][mlkem]") {
  for (int i = 0; i < 20; i++) {
    Bytes ek(MLKEM768_PUBLIC_KEY_BYTES), seed(MLKEM_SEED_BYTES);
    MLKEM768_private_key priv;
    MLKEM768_generate_key(ek.data(), seed.data(), &priv);

    // Parsed ek, public_from_private and marshal agree.
    MLKEM768_public_key pub, pub2;
    REQUIRE(parse_public(ek, &pub));
    MLKEM768_public_from_private(&pub2, &priv);
    CHECK(marshal_public(pub) == ek);
    CHECK(marshal_public(pub2) == ek);

    // Random encapsulation to either form decapsulates.
    for (const MLKEM768_public_key* p : {&pub, &pub2}) {
      Bytes ct(MLKEM768_CIPHERTEXT_BYTES), ss(MLKEM_SHARED_SECRET_BYTES);
      MLKEM768_encap(ct.data(), ss.data(), p);
      CHECK(decap(priv, ct) == ss);
    }

    // The seed recreates the key, with either entry point.
    MLKEM768_private_key priv2;
    REQUIRE(MLKEM768_private_key_from_seed(&priv2, seed.data(), seed.size()));
    CHECK(marshal_private(priv2) == marshal_private(priv));
    CHECK_FALSE(MLKEM768_private_key_from_seed(&priv2, seed.data(), 63));
    KeyPair kp = keygen_from_seed(seed);
    CHECK(kp.ek == ek);

    // dk layout: ByteEncode12(s) || ek || H(ek) || z, and it parses back to
    // an equivalent key.
    Bytes dk = marshal_private(priv);
    REQUIRE(dk.size() == MLKEM768_PRIVATE_KEY_BYTES);
    CHECK(Bytes(dk.begin() + 1152, dk.begin() + 1152 + 1184) == ek);
    uint8_t h[32];
    BORINGSSL_keccak(h, sizeof(h), ek.data(), ek.size(), boringssl_sha3_256);
    CHECK(Bytes(dk.begin() + 2336, dk.begin() + 2368) == Bytes(h, h + 32));
    CHECK(Bytes(dk.begin() + 2368, dk.end()) == Bytes(seed.begin() + 32, seed.end()));
    MLKEM768_private_key priv3;
    REQUIRE(parse_private(dk, &priv3));
    CHECK(marshal_private(priv3) == dk);

    // Deterministic encapsulation: same m, same result; decapsulates with the
    // parsed private key too.
    Bytes m = random_bytes(32);
    Encapsulation e1 = encap(pub, m), e2 = encap(pub2, m);
    CHECK(e1.ct == e2.ct);
    CHECK(e1.ss == e2.ss);
    CHECK(decap(priv3, e1.ct) == e1.ss);
  }
}

TEST_CASE("ML-KEM-768: implicit rejection", "[boringssl][mlkem]") {
  Bytes seed = random_bytes(MLKEM_SEED_BYTES);
  KeyPair kp = keygen_from_seed(seed);
  const Bytes z(seed.begin() + 32, seed.end());
  MLKEM768_public_key pub;
  REQUIRE(parse_public(kp.ek, &pub));
  Encapsulation e = encap(pub, random_bytes(32));
  REQUIRE(decap(*kp.priv, e.ct) == e.ss);

  // Any change to the ciphertext gives J(z || c'), never the real secret.
  for (size_t pos : {size_t{0}, size_t{1}, size_t{500}, size_t{959}, size_t{960}, size_t{1087}}) {
    for (int bit = 0; bit < 8; bit += 3) {
      Bytes bad = e.ct;
      bad[pos] ^= static_cast<uint8_t>(1 << bit);
      Bytes ss = decap(*kp.priv, bad);
      INFO("byte " << pos << " bit " << bit);
      CHECK(ss != e.ss);
      CHECK(ss == implicit_rejection_key(z, bad));
      CHECK(decap(*kp.priv, bad) == ss);  // deterministic
    }
  }
  // Random ciphertexts too.
  for (int i = 0; i < 20; i++) {
    Bytes bad = random_bytes(MLKEM768_CIPHERTEXT_BYTES);
    CHECK(decap(*kp.priv, bad) == implicit_rejection_key(z, bad));
  }
  // The valid ciphertext does not give J(z || c).
  CHECK(e.ss != implicit_rejection_key(z, e.ct));

  // A wrong length is an error, with random output.
  Bytes ss(32, 0), ss2(32, 0);
  CHECK(MLKEM768_decap(ss.data(), e.ct.data(), e.ct.size() - 1, kp.priv.get()) == 0);
  CHECK(MLKEM768_decap(ss2.data(), e.ct.data(), e.ct.size() - 1, kp.priv.get()) == 0);
  CHECK(ss != ss2);
  CHECK(ss != e.ss);
}

TEST_CASE("ML-KEM-768: key parsing checks", "[boringssl][mlkem]") {
  KeyPair kp = keygen_from_seed(random_bytes(MLKEM_SEED_BYTES));
  MLKEM768_public_key pub;
  MLKEM768_private_key priv;

  SECTION("public key: length, trailing data, modulus at each position") {
    CHECK(parse_public(kp.ek, &pub));
    CHECK_FALSE(parse_public(Bytes(kp.ek.begin(), kp.ek.end() - 1), &pub));
    Bytes longer = kp.ek;
    longer.push_back(0);
    CHECK_FALSE(parse_public(longer, &pub));
    CHECK_FALSE(parse_public(Bytes(), &pub));
    for (size_t index : {size_t{0}, size_t{1}, size_t{255}, size_t{256}, size_t{511}, size_t{767}}) {
      for (uint16_t value : {uint16_t{3328}, uint16_t{3329}, uint16_t{4095}}) {
        Bytes ek = kp.ek;
        set_coefficient12(ek.data(), index, value);
        INFO("coefficient " << index << " = " << value);
        CHECK(parse_public(ek, &pub) == (value < 3329));
      }
    }
    // rho is not range checked: any 32 bytes.
    Bytes ek = kp.ek;
    std::fill(ek.end() - 32, ek.end(), 0xff);
    CHECK(parse_public(ek, &pub));
  }

  SECTION("private key: length, H(ek), modulus of s and of ek") {
    CHECK(parse_private(kp.dk, &priv));
    CHECK_FALSE(parse_private(Bytes(kp.dk.begin(), kp.dk.end() - 1), &priv));
    Bytes longer = kp.dk;
    longer.push_back(0);
    CHECK_FALSE(parse_private(longer, &priv));

    Bytes bad_hash = kp.dk;
    bad_hash[2336] ^= 1;
    CHECK_FALSE(parse_private(bad_hash, &priv));

    Bytes bad_ek = kp.dk;  // ek changed, H(ek) not: hash check fails
    bad_ek[1152 + 5] ^= 1;
    CHECK_FALSE(parse_private(bad_ek, &priv));

    for (size_t index : {size_t{0}, size_t{300}, size_t{767}}) {
      Bytes dk = kp.dk;
      INFO("s coefficient " << index);
      set_coefficient12(dk.data(), index, static_cast<uint16_t>(3329 + index % 767));
      CHECK_FALSE(parse_private(dk, &priv));
    }

    // z is not checked: any 32 bytes, and it is what implicit rejection uses.
    Bytes other_z = kp.dk;
    std::fill(other_z.end() - 32, other_z.end(), 0x5a);
    REQUIRE(parse_private(other_z, &priv));
    Bytes junk = random_bytes(MLKEM768_CIPHERTEXT_BYTES);
    CHECK(decap(priv, junk) == implicit_rejection_key(Bytes(32, 0x5a), junk));
  }
}

// --- differential test against @noble/post-quantum --------------------------

namespace {

// run_noble feeds |commands| (one per line) to mlkem_noble.js and returns its
// output lines. It returns false, with a warning, when the test must be
// skipped.
bool run_noble(const std::vector<std::string>& commands, std::vector<std::string>* out) {
  const std::string dir = TLSC_MLKEM_NOBLE_DIR;
  if (!file_exists(dir + "/node_modules/@noble/post-quantum/package.json")) {
    WARN("skipped: " << dir << "/node_modules is missing (run `npm ci` in tests/boringssl/mlkem_noble)");
    return false;
  }
  if (std::system("node --version >/dev/null 2>&1") != 0) {
    WARN("skipped: `node` is not on PATH");
    return false;
  }
  char in_path[] = "/tmp/mlkem_noble_in_XXXXXX";
  int fd = mkstemp(in_path);
  REQUIRE(fd >= 0);
  std::string input;
  for (const auto& c : commands) input += c + "\n";
  size_t done = 0;
  while (done < input.size()) {
    ssize_t n = write(fd, input.data() + done, input.size() - done);
    REQUIRE(n > 0);
    done += static_cast<size_t>(n);
  }
  close(fd);
  const std::string cmd = "node '" + dir + "/mlkem_noble.js' < '" + in_path + "'";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string output;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) output.append(buf, n);
  int status = pclose(p);
  unlink(in_path);
  INFO("command: " << cmd);
  REQUIRE(status == 0);
  out->clear();
  for (auto& line : split(output, '\n')) {
    if (!line.empty()) out->push_back(line);
  }
  REQUIRE(out->size() == commands.size());
  return true;
}

}  // namespace

TEST_CASE("ML-KEM-768: differential against @noble/post-quantum", "[boringssl][mlkem][noble]") {
  constexpr int kCases = 200;
  // All inputs come from SHAKE-128 of a random run seed, printed on failure.
  Bytes run_seed = random_bytes(32);
  INFO("run seed " << to_hex(run_seed));
  Shake128 rng;
  rng.absorb(run_seed);

  struct Case {
    Bytes seed_ours, seed_noble, m_ours, m_noble, junk_ct;
    KeyPair ours;
    Bytes noble_ek, noble_dk;
    Encapsulation ours_to_noble, noble_to_ours;
  };
  std::vector<Case> cases(kCases);
  std::vector<std::string> batch1;
  for (auto& c : cases) {
    c.seed_ours = rng.squeeze(64);
    c.seed_noble = rng.squeeze(64);
    c.m_ours = rng.squeeze(32);
    c.m_noble = rng.squeeze(32);
    c.junk_ct = rng.squeeze(MLKEM768_CIPHERTEXT_BYTES);
    c.ours = keygen_from_seed(c.seed_ours);
    batch1.push_back("keygen " + to_hex(c.seed_noble));                        // noble's key
    batch1.push_back("keygen " + to_hex(c.seed_ours));                         // same seed as ours
    batch1.push_back("encap " + to_hex(c.ours.ek) + " " + to_hex(c.m_noble));  // noble -> ours
    batch1.push_back("decap " + to_hex(c.ours.dk) + " " + to_hex(c.junk_ct));  // rejection
  }
  std::vector<std::string> out1;
  if (!run_noble(batch1, &out1)) return;

  int same_keys = 0, noble_to_ours_ok = 0, rejection_same = 0, parsed_noble_keys = 0;
  std::vector<std::string> batch2;
  for (int i = 0; i < kCases; i++) {
    Case& c = cases[i];
    INFO("case " << i);
    auto kg = split(out1[4 * i], ' ');
    REQUIRE(kg.size() == 2);
    c.noble_ek = from_hex(kg[0]);
    c.noble_dk = from_hex(kg[1]);

    // Identical seeds give identical keys (ek and the whole dk).
    auto kg2 = split(out1[4 * i + 1], ' ');
    REQUIRE(kg2.size() == 2);
    if (kg2[0] == to_hex(c.ours.ek) && kg2[1] == to_hex(c.ours.dk)) same_keys++;

    // noble encapsulated to our key: we decapsulate to its secret, and our
    // deterministic encapsulation with the same m gives the same ciphertext.
    auto en = split(out1[4 * i + 2], ' ');
    REQUIRE(en.size() == 2);
    c.noble_to_ours = {from_hex(en[0]), from_hex(en[1])};
    MLKEM768_public_key our_pub;
    REQUIRE(parse_public(c.ours.ek, &our_pub));
    Encapsulation mine = encap(our_pub, c.m_noble);
    if (decap(*c.ours.priv, c.noble_to_ours.ct) == c.noble_to_ours.ss && mine.ct == c.noble_to_ours.ct &&
        mine.ss == c.noble_to_ours.ss) {
      noble_to_ours_ok++;
    }

    // Implicit rejection of the same junk ciphertext agrees.
    if (out1[4 * i + 3] == to_hex(decap(*c.ours.priv, c.junk_ct))) rejection_same++;

    // We encapsulate to noble's key (parsed from its ek); noble decapsulates
    // in batch 2.
    MLKEM768_public_key noble_pub;
    if (!parse_public(c.noble_ek, &noble_pub)) continue;
    parsed_noble_keys++;
    c.ours_to_noble = encap(noble_pub, c.m_ours);
    batch2.push_back("decap " + to_hex(c.noble_dk) + " " + to_hex(c.ours_to_noble.ct));
    batch2.push_back("encap " + to_hex(c.noble_ek) + " " + to_hex(c.m_ours));
  }
  CHECK(same_keys == kCases);
  CHECK(noble_to_ours_ok == kCases);
  CHECK(rejection_same == kCases);
  REQUIRE(parsed_noble_keys == kCases);

  // noble rejects the invalid keys of modulus-ML-KEM-768.txt.gz as we do.
  const std::vector<std::string> modulus_keys = read_modulus_keys();
  for (const auto& ek : modulus_keys) batch2.push_back("encap " + ek + " " + to_hex(cases[0].m_ours));

  std::vector<std::string> out2;
  REQUIRE(run_noble(batch2, &out2));
  int noble_rejected = 0;
  for (size_t i = 0; i < modulus_keys.size(); i++) {
    if (out2[2 * kCases + i].rfind("error ", 0) == 0) noble_rejected++;
  }
  CHECK(noble_rejected == static_cast<int>(modulus_keys.size()));
  int ours_to_noble_ok = 0, noble_dk_parses = 0;
  for (int i = 0; i < kCases; i++) {
    Case& c = cases[i];
    INFO("case " << i);
    auto en = split(out2[2 * i + 1], ' ');
    REQUIRE(en.size() == 2);
    if (out2[2 * i] == to_hex(c.ours_to_noble.ss) && en[0] == to_hex(c.ours_to_noble.ct) &&
        en[1] == to_hex(c.ours_to_noble.ss)) {
      ours_to_noble_ok++;
    }
    // noble's dk parses (all FIPS 203 checks pass) and decapsulates too.
    MLKEM768_private_key priv;
    if (parse_private(c.noble_dk, &priv) && decap(priv, c.ours_to_noble.ct) == c.ours_to_noble.ss &&
        marshal_private(priv) == c.noble_dk) {
      noble_dk_parses++;
    }
  }
  CHECK(ours_to_noble_ok == kCases);
  CHECK(noble_dk_parses == kCases);
}
