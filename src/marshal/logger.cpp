// The one logger of DL (see dl::logger() in marshal.hpp).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "dl/marshal.hpp"

namespace dl {

spdlog::logger& logger() {
  // Never destroyed: DL logs from driver threads and exit handlers.
  static spdlog::logger* l = [] {
    auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    auto* lg = new spdlog::logger("dl", sink);
    lg->set_pattern("[dl] [%l] %v");
    lg->set_level(spdlog::level::warn);
    return lg;
  }();
  return *l;
}

}  // namespace dl
