// Algorithm names, as plans, logs, benchmarks and the C API spell them.
#include <cstring>

#include "dl/marshal.hpp"

namespace dl {
namespace {

struct Name {
  Algorithm a;
  const char* text;
};
constexpr Name kNames[] = {
    {Algorithm::Auto, "auto"},
    {Algorithm::BarrierSync, "barrier-sync"},
    {Algorithm::PttwacInstance, "pttwac-instance"},
    {Algorithm::Pttwac, "pttwac"},
    {Algorithm::Pipt, "pipt"},
    {Algorithm::Segmented, "segmented"},
    {Algorithm::OutOfPlace, "out-of-place"},
    {Algorithm::ThreePass, "three-pass"},
    {Algorithm::Square, "square"},
    {Algorithm::Diagonal, "diagonal"},
};

}  // namespace

const char* algorithm_name(Algorithm a) {
  for (const auto& n : kNames)
    if (n.a == a) return n.text;
  return "?";
}

bool parse_algorithm(std::string_view text, Algorithm& out) {
  for (const auto& n : kNames)
    if (text == n.text) return out = n.a, true;
  return false;
}

}  // namespace dl
