// streamId -> the streamed response it names (requestStream until EOF,
// error, readStreamAll or cancelStream). Any thread.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/body_stream.h"

namespace tlsc {

class StreamRegistry {
 public:
  void add(const std::string& id, std::shared_ptr<BodyStream> stream);
  std::shared_ptr<BodyStream> find(const std::string& id);
  std::shared_ptr<BodyStream> remove(const std::string& id);
  std::vector<std::shared_ptr<BodyStream>> remove_all();

 private:
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<BodyStream>> streams_;
};

}  // namespace tlsc
