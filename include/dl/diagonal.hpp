// Diagonalization of the two fastest dimensions of an array (docs/remappings.md,
// "Diagonalization"): the elements of each ny x nx plane (x fastest) are stored diagonal
// after diagonal, so that a wavefront reading one diagonal (Needleman-Wunsch, a
// successive over-relaxation with dependences in both dimensions) reads consecutive
// addresses.
//
//   anti-diagonals (Diagonal::Secondary): diagonal d = x + y, d = 0 .. nx + ny - 2, each
//   in increasing y;  Diagonal::Main: diagonal d = (nx - 1 - x) + y, the plane mirrored in
//   x first (d = 0 is the top right corner), each in increasing y.
//
//   position(y, x) = S(d) + y - max(0, d - (nx - 1)),  S(d) = elements of diagonals < d
//
// One closed form covers DVMH's three shapes of each direction (nx = ny, nx < ny,
// nx > ny): diagonals grow to min(nx, ny) elements, keep that length, and shrink. The
// same code is compiled into the OpenCL kernels (kernels/diagonal.cl mirrors it).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dl {

enum class Diagonal : std::uint8_t { Secondary, Main };

/// `planes` planes of ny x nx elements of `elem` bytes, back to back.
struct DiagonalShape {
  std::uint64_t ny = 0, nx = 0, planes = 1;
  std::size_t elem = 4;
  Diagonal direction = Diagonal::Secondary;
  std::uint64_t plane_elements() const { return ny * nx; }
  std::uint64_t bytes() const { return planes * ny * nx * elem; }
};

/// Elements of the diagonals before diagonal d of an ny x nx plane.
std::uint64_t diagonal_start(std::uint64_t d, std::uint64_t nx, std::uint64_t ny);
/// Where element (y, x) of a plane is stored in the diagonalized plane.
std::uint64_t diagonal_position(const DiagonalShape& s, std::uint64_t y, std::uint64_t x);
/// The element stored at position p of a diagonalized plane.
void diagonal_element(const DiagonalShape& s, std::uint64_t p, std::uint64_t* y, std::uint64_t* x);

/// The CPU reference: `dst` receives `src` diagonalized (to_diagonal) or, from a
/// diagonalized `src`, the row-major planes. The regions must not overlap.
void diagonalize(const DiagonalShape& s, const void* src, void* dst, bool to_diagonal);

/// A sub-rectangle of every plane: h rows and w columns from (y0, x0).
struct Rect {
  std::uint64_t y0 = 0, x0 = 0, h = 0, w = 0;
  bool inside(const DiagonalShape& s) const {
    return y0 <= s.ny && h <= s.ny - y0 && x0 <= s.nx && w <= s.nx - x0;
  }
};

/// The CPU reference of the clipping copy: `rect` of each diagonalized plane of
/// `diagonal` to a row-major h x w array per plane in `rect_data` (out), or back into its
/// places in `diagonal` (!out, the other elements untouched).
void clip_diagonal(const DiagonalShape& s, const Rect& rect, void* diagonal, void* rect_data,
                   bool out);

}  // namespace dl
