#include "wire/header_order.h"

#include <algorithm>
#include <cstdint>

#include "wire/header_canon.h"

namespace tlsc {
namespace {

// header_order lookup that mirrors Go's map semantics: names compare after
// lowercasing and a name listed twice keeps its last index.
class OrderIndex {
 public:
  explicit OrderIndex(const std::vector<std::string>& order) {
    entries_.reserve(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
      entries_.push_back({order[i], static_cast<int>(i)});
    }
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      const int c = compare_ascii_icase(a.name, b.name);
      return c != 0 ? c < 0 : a.index < b.index;
    });
  }

  int rank(std::string_view key) const {
    auto it = std::upper_bound(entries_.begin(), entries_.end(), key, [](std::string_view k, const Entry& e) {
      return compare_ascii_icase(k, e.name) < 0;
    });
    if (it == entries_.begin()) return -1;
    --it;
    return compare_ascii_icase(it->name, key) == 0 ? it->index : -1;
  }

 private:
  struct Entry {
    std::string_view name;
    int index;
  };
  std::vector<Entry> entries_;
};

struct Ranked {
  HeaderField field;
  int rank;            // position in header_order, -1 when not listed
  uint32_t key_first;  // seq of the first field with the same exact key
  uint32_t seq;        // insertion order
};

}  // namespace

void sort_like_fhttp(std::vector<HeaderField>& fields, const std::vector<std::string>& header_order) {
  std::vector<Ranked> ranked;
  ranked.reserve(fields.size());
  for (const auto& f : fields) ranked.push_back({f, -1, 0, static_cast<uint32_t>(ranked.size())});
  // Values of one exact key stay together and in insertion order, as the
  // values slice of a single Go map entry would.
  {
    std::vector<uint32_t> by_key(ranked.size());
    for (uint32_t i = 0; i < by_key.size(); ++i) by_key[i] = i;
    std::sort(by_key.begin(), by_key.end(), [&](uint32_t a, uint32_t b) {
      const int c = ranked[a].field.key.compare(ranked[b].field.key);
      return c != 0 ? c < 0 : a < b;
    });
    for (size_t i = 0; i < by_key.size(); ++i) {
      const bool same = i > 0 && ranked[by_key[i]].field.key == ranked[by_key[i - 1]].field.key;
      ranked[by_key[i]].key_first = same ? ranked[by_key[i - 1]].key_first : by_key[i];
    }
  }
  if (!header_order.empty()) {
    const OrderIndex order(header_order);
    for (auto& r : ranked) r.rank = order.rank(r.field.key);
  }
  // headerSorter.Less: listed keys by position, then unlisted keys bytewise.
  std::sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    if (a.rank >= 0 && b.rank >= 0) {
      if (a.rank != b.rank) return a.rank < b.rank;
      if (a.key_first != b.key_first) return a.key_first < b.key_first;
      return a.seq < b.seq;
    }
    if (a.rank >= 0) return true;
    if (b.rank >= 0) return false;
    const int c = a.field.key.compare(b.field.key);
    return c != 0 ? c < 0 : a.seq < b.seq;
  });
  for (size_t i = 0; i < ranked.size(); ++i) fields[i] = ranked[i].field;
}

}  // namespace tlsc
