// Diagonalization of the two fastest dimensions (include/dl/diagonal.hpp).
#include "dl/diagonal.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace dl {
namespace {

/// floor(sqrt(v)), exact for every 64-bit v the planes here produce.
std::uint64_t isqrt(std::uint64_t v) {
  auto r = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(v)));
  while (r > 0 && r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

/// The largest t with t (t + 1) / 2 <= v.
std::uint64_t triangular_root(std::uint64_t v) {
  return (isqrt(8 * v + 1) - 1) / 2;
}

}  // namespace

std::uint64_t diagonal_start(std::uint64_t d, std::uint64_t nx, std::uint64_t ny) {
  const std::uint64_t a = std::min(nx, ny), b = std::max(nx, ny);
  if (d < a) return d * (d + 1) / 2;  // growing: diagonal k holds k + 1 elements
  if (d < b) return a * (a - 1) / 2 + (d - (a - 1)) * a;  // a elements each
  const std::uint64_t m = nx + ny - 1 - d;                // shrinking: the head mirrored
  return nx * ny - m * (m + 1) / 2;
}

std::uint64_t diagonal_position(const DiagonalShape& s, std::uint64_t y, std::uint64_t x) {
  if (s.direction == Diagonal::Main) x = s.nx - 1 - x;
  const std::uint64_t d = x + y;
  return diagonal_start(d, s.nx, s.ny) + y - (d >= s.nx ? d - (s.nx - 1) : 0);
}

void diagonal_element(const DiagonalShape& s, std::uint64_t p, std::uint64_t* y, std::uint64_t* x) {
  const std::uint64_t nx = s.nx, ny = s.ny, a = std::min(nx, ny), b = std::max(nx, ny);
  const std::uint64_t head = a * (a - 1) / 2, plateau = head + (b - a + 1) * a;
  std::uint64_t d = 0;
  if (p < head) {
    d = triangular_root(p);
  } else if (p < plateau) {
    d = a - 1 + (p - head) / a;
  } else {
    // Diagonal d = nx + ny - 1 - m with m the smallest m where m (m + 1) / 2 >= the
    // elements from p to the end.
    const std::uint64_t q = nx * ny - p;
    std::uint64_t m = triangular_root(q);
    if (m * (m + 1) / 2 < q) ++m;
    d = nx + ny - 1 - m;
  }
  const std::uint64_t yy = p - diagonal_start(d, nx, ny) + (d >= nx ? d - (nx - 1) : 0);
  const std::uint64_t xx = d - yy;
  *y = yy;
  *x = s.direction == Diagonal::Main ? nx - 1 - xx : xx;
}

void diagonalize(const DiagonalShape& s, const void* src, void* dst, bool to_diagonal) {
  const auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  const std::uint64_t plane = s.plane_elements();
  for (std::uint64_t z = 0; z < s.planes; ++z)
    for (std::uint64_t y = 0; y < s.ny; ++y)
      for (std::uint64_t x = 0; x < s.nx; ++x) {
        const std::uint64_t row = z * plane + y * s.nx + x;
        const std::uint64_t diag = z * plane + diagonal_position(s, y, x);
        const std::uint64_t from = to_diagonal ? row : diag, to = to_diagonal ? diag : row;
        std::memcpy(out + to * s.elem, in + from * s.elem, s.elem);
      }
}

void clip_diagonal(const DiagonalShape& s, const Rect& r, void* diagonal, void* rect_data,
                   bool out) {
  auto* diag = static_cast<unsigned char*>(diagonal);
  auto* rect = static_cast<unsigned char*>(rect_data);
  const std::uint64_t plane = s.plane_elements();
  for (std::uint64_t z = 0; z < s.planes; ++z)
    for (std::uint64_t i = 0; i < r.h; ++i)
      for (std::uint64_t j = 0; j < r.w; ++j) {
        unsigned char* d = diag + (z * plane + diagonal_position(s, r.y0 + i, r.x0 + j)) * s.elem;
        unsigned char* q = rect + ((z * r.h + i) * r.w + j) * s.elem;
        if (out)
          std::memcpy(q, d, s.elem);
        else
          std::memcpy(d, q, s.elem);
      }
}

}  // namespace dl
