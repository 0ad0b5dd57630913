// BodyBuffer: a body kept in blocks as it arrives, joined once.
#include "http/body_buffer.h"

#include <string>

#include <catch2/catch.hpp>

using tlsc::BodyBuffer;

TEST_CASE("body buffer: appends of every size join to the same bytes", "[body-buffer]") {
  for (size_t piece : {size_t{7}, size_t{4096}, size_t{256} << 10, (size_t{3} << 20) + 7, size_t{9} << 20}) {
    INFO("pieces of " << piece);
    BodyBuffer b;
    std::string want;
    const size_t total = (size_t{13} << 20) + 5;  // past three block edges
    for (size_t n = 0; n < total; n += piece) {
      std::string p(std::min(piece, total - n), static_cast<char>('a' + (n / piece) % 26));
      b.append(p);
      want += p;
    }
    CHECK(b.size() == want.size());
    CHECK(std::move(b).join() == want);
    CHECK(b.empty());
  }
}

TEST_CASE("body buffer: a body of one block is handed over, not copied", "[body-buffer]") {
  BodyBuffer b;
  b.append(std::string(1000, 'x'));
  b.append(std::string(2000, 'y'));
  std::string joined = std::move(b).join();
  CHECK(joined == std::string(1000, 'x') + std::string(2000, 'y'));
  // Small bodies never reserve a whole block.
  CHECK(joined.capacity() < BodyBuffer::kBlock);
  BodyBuffer empty;
  CHECK(std::move(empty).join().empty());
}

TEST_CASE("body buffer: a reserved body arrives without regrowing", "[body-buffer]") {
  BodyBuffer b;
  b.reserve(300000);
  b.append(std::string(100000, 'a'));
  b.append(std::string(200000, 'b'));
  std::string joined = std::move(b).join();
  CHECK(joined.size() == 300000);
  CHECK(joined.capacity() == 300000);  // one allocation, never doubled
  CHECK(joined == std::string(100000, 'a') + std::string(200000, 'b'));
  // At most a block is reserved, whatever a Content-Length says; a reserve
  // after data (or of nothing) changes nothing.
  BodyBuffer huge;
  huge.reserve(SIZE_MAX / 2);  // a Content-Length no memory could hold, on 32-bit too
  huge.append("x");
  huge.reserve(100);
  CHECK(std::move(huge).join().capacity() == BodyBuffer::kBlock);
  BodyBuffer none;
  none.reserve(0);
  CHECK(none.empty());
  CHECK(std::move(none).join().empty());
}
