// DL marshaling kernels: diagonalization of the two fastest dimensions, out of place
// (include/dl/diagonal.hpp has the map and its CPU reference; docs/remappings.md the
// picture). `planes` planes of ny x nx elements of ru units; dir 0: row-major src ->
// diagonalized dst, dir 1: back. `mirror` != 0: diagonals parallel to the main diagonal
// (the plane mirrored in x), else to the secondary one. Positions here are in the
// mirrored frame x' (x' = x, or nx - 1 - x), where diagonal d holds x' + y = d.

// Elements of the diagonals before diagonal d.
inline ulong dl_diag_start(ulong d, ulong nx, ulong ny) {
  const ulong a = min(nx, ny), b = max(nx, ny);
  if (d < a) return d * (d + 1) / 2;
  if (d < b) return a * (a - 1) / 2 + (d - (a - 1)) * a;
  const ulong m = nx + ny - 1 - d;
  return nx * ny - m * (m + 1) / 2;
}

// The position of element (y, x') in its diagonalized plane.
inline ulong dl_diag_pos(ulong y, ulong xm, ulong nx, ulong ny) {
  const ulong d = xm + y;
  return dl_diag_start(d, nx, ny) + y - (d >= nx ? d - (nx - 1) : 0);
}

// floor(sqrt(v)) from a float estimate, corrected to the exact integer root.
inline ulong dl_isqrt(ulong v) {
  ulong r = (ulong)sqrt((float)v);
  while (r > 0 && r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

// The element (y, x') stored at position p of a diagonalized plane.
inline void dl_diag_elem(ulong p, ulong nx, ulong ny, ulong* y, ulong* xm) {
  const ulong a = min(nx, ny), b = max(nx, ny);
  const ulong head = a * (a - 1) / 2, plateau = head + (b - a + 1) * a;
  ulong d;
  if (p < head) {
    d = (dl_isqrt(8 * p + 1) - 1) / 2;
  } else if (p < plateau) {
    d = a - 1 + (p - head) / a;
  } else {
    const ulong q = nx * ny - p;
    ulong m = (dl_isqrt(8 * q + 1) - 1) / 2;
    if (m * (m + 1) / 2 < q) ++m;
    d = nx + ny - 1 - m;
  }
  *y = p - dl_diag_start(d, nx, ny) + (d >= nx ? d - (nx - 1) : 0);
  *xm = d - *y;
}

// One work-item per destination unit (coalesced stores); the loads follow the map. The
// reference for the tiled kernel below, and its fallback.
__kernel void dl_diag_gather(__global const U* restrict src, ulong sbase, __global U* restrict dst,
                             ulong dbase, ulong ny, ulong nx, ulong planes, uint ru, uint dir,
                             uint mirror) {
  const ulong plane = ny * nx, total = planes * plane * ru;
  for (ulong t = get_global_id(0); t < total; t += get_global_size(0)) {
    const ulong e = t / ru, k = t - e * ru;
    const ulong z = e / plane, q = e - z * plane;  // q: position in the destination plane
    ulong from;
    if (dir == 0) {  // q is a diagonal position
      ulong y, xm;
      dl_diag_elem(q, nx, ny, &y, &xm);
      from = y * nx + (mirror ? nx - 1 - xm : xm);
    } else {  // q is a row-major position
      const ulong y = q / nx, x = q - y * nx;
      from = dl_diag_pos(y, mirror ? nx - 1 - x : x, nx, ny);
    }
    dst[dbase + t] = src[sbase + (z * plane + from) * ru + k];
  }
}

// Position t0 of a walk over a [.][across] array (a: row, u: column)...
inline void dl_diag_walk(uint t0, uint across, uint* a, uint* u) {
  *a = t0 / across;
  *u = t0 - *a * across;
}
// ... advanced by step_a * across + step_u positions.
inline void dl_diag_next(uint step_a, uint step_u, uint across, uint* a, uint* u) {
  *u += step_u;
  *a += step_a;
  if (*u >= across) {
    *u -= across;
    ++*a;
  }
}

// Tiled: a work-group takes H rows [y0, y0 + H) of a plane and W diagonals [d0, d0 + W)
// of them: the parallelogram where row y holds x' in [d0 - y, d0 + W - y), W consecutive
// elements, and diagonal d holds the H elements of those rows, consecutive in the
// diagonalized plane too. Both sides move runs of W or H elements through local memory
// (rows of W * ru units at a pitch of W * ru + 1). Band b of a plane has tiles
// d0 = b * H + j * W, j < ceil((nx + H - 1) / W). Per tile, H row starts and W diagonal
// starts are computed once (`rb`, `db`, in units); per unit the work is 32-bit: row r,
// column c (element x' = j W + c - r of row y0 + r) and unit k, stepped without divisions.
// Planes of up to 2^31 elements, H rows and W diagonals' runs of up to 2^31 units (the
// host checks).
__kernel void dl_diag_tiled(__global const U* restrict src, ulong sbase, __global U* restrict dst,
                            ulong dbase, ulong ny, ulong nx, ulong planes, uint ru, uint dir,
                            uint mirror, uint H, uint W, __local U* lds, __local uint* rb,
                            __local uint* db) {
  const uint bands = (uint)((ny + H - 1) / H), per_band = (uint)((nx + H - 1 + W - 1) / W);
  const uint tiles_per_plane = bands * per_band;
  const ulong tiles = planes * tiles_per_plane, plane = ny * nx;
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const uint wr = W * ru, hr = H * ru, pitch = wr + 1, cnt = H * wr;
  const uint nxu = (uint)nx;
  // The walks over the row side ([H][W ru]) and the diagonal side ([W][H ru]).
  const uint rs_a = lsz / wr, rs_u = lsz - rs_a * wr, ds_a = lsz / hr, ds_u = lsz - ds_a * hr;
  for (ulong g = get_group_id(0); g < tiles; g += get_num_groups(0)) {
    const ulong z = g / tiles_per_plane;
    const uint rest = (uint)(g - z * tiles_per_plane);
    const uint b = rest / per_band, j = rest - b * per_band;
    const uint y0 = b * H, jw = j * W;  // d0 = y0 + jw
    const ulong pbase = z * plane;
    // The tile's first row and its first diagonal's run from row y0, in units; the other
    // rows' and diagonals' starts relative to them (32-bit: the host checks the shape).
    const ulong row0 = (pbase + (ulong)y0 * nx) * ru;
    // Diagonal d0 + c's run starts at element (y0, x' = jw + c) of the diagonalized plane.
    const ulong run0 = dl_diag_pos(y0, jw, nx, ny), diag0 = pbase + run0;
    for (uint r = lid; r < H; r += lsz) rb[r] = r * nxu * ru;
    for (uint c = lid; c < W; c += lsz) db[c] = (uint)(dl_diag_pos(y0, jw + c, nx, ny) - run0) * ru;
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong rbase[2] = {sbase + row0, dbase + row0}, dgbase[2] = {sbase + diag0 * ru,
                                                                      dbase + diag0 * ru};
    for (int side = 0; side < 2; ++side) {
      // side 0 loads into local memory, side 1 stores from it; the row side is loaded
      // for dir 0 and stored for dir 1.
      const bool rows = (side == 0) == (dir == 0);
      uint a, u;
      if (rows)
        dl_diag_walk(lid, wr, &a, &u);
      else
        dl_diag_walk(lid, hr, &a, &u);
      for (uint t = lid; t < cnt; t += lsz) {
        uint r, c, k;
        if (rows) {
          r = a;
          c = ru == 1 ? u : u / ru;
          k = u - c * ru;
        } else {
          c = a;
          r = ru == 1 ? u : u / ru;
          k = u - r * ru;
        }
        const uint xm = jw + c - r;  // x' of (y0 + r, d0 + c), valid when jw + c >= r
        if (jw + c >= r && xm < nxu && (ulong)y0 + r < ny) {
          // Only the side this walk is on: a row's run or a diagonal's.
          const ulong at = rows ? rbase[side] + (rb[r] + (mirror ? nxu - 1 - xm : xm) * ru + k)
                                : dgbase[side] + (db[c] + r * ru + k);
          const uint l = r * pitch + c * ru + k;
          if (side == 0)
            lds[l] = src[at];
          else
            dst[at] = lds[l];
        }
        if (rows)
          dl_diag_next(rs_a, rs_u, wr, &a, &u);
        else
          dl_diag_next(ds_a, ds_u, hr, &a, &u);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}

// Where the compiler takes an unroll hint for OpenCL C (NVIDIA's), the batched loads of
// dl_diag_tiled64 are unrolled so they stay in registers. Elsewhere the loops are left
// as they are: same results, the compiler's own choice.
#ifdef cl_nv_pragma_unroll
#define DL_DIAG_UNROLL _Pragma("unroll")
#else
#define DL_DIAG_UNROLL
#endif

// dl_diag_tiled64: the tiled kernel's parallelograms of 64 rows by 64 diagonals for
// elements of one unit (ru == 1), with every load of a side issued before any of them
// is written to local memory: each of the 128 work-items has 32 loads in flight, where
// the general kernel has one (1.4-1.8x its throughput on the H200). Work-item
// (tx, ty) = (lid % 64, lid / 64) takes column tx of rows ty, ty + 2, ... on the row side
// and row tx of diagonals ty, ty + 2, ... on the diagonal side. An element outside the
// plane loads the source's first unit instead (no branch around the load) and is never
// stored (x' = jw + c - r, unsigned, is below nx only inside the plane's columns).
// Tiles go in the order of the stored side (below).
// `lds`: 64 x 65 units; `db`: 64 diagonal starts. The host launches it with
// 128 work-items per group and the shape limits of dl_diag_tiled.
#define DL_DIAG_T 64
#define DL_DIAG_WI 128
#define DL_DIAG_STEP (DL_DIAG_WI / DL_DIAG_T)
#define DL_DIAG_PER (DL_DIAG_T / DL_DIAG_STEP)
__kernel __attribute__((reqd_work_group_size(DL_DIAG_WI, 1, 1))) void dl_diag_tiled64(
    __global const U* restrict src, ulong sbase, __global U* restrict dst, ulong dbase, ulong ny,
    ulong nx, ulong planes, uint ru, uint dir, uint mirror, __local U* lds, __local uint* db) {
  const uint T = DL_DIAG_T, pitch = DL_DIAG_T + 1;
  const uint bands = (uint)((ny + T - 1) / T), per_band = (uint)((nx + 2 * T - 2) / T);
  const uint tiles_per_plane = bands * per_band;
  const ulong tiles = planes * tiles_per_plane, plane = ny * nx;
  const uint lid = get_local_id(0), tx = lid % T, ty = lid / T;
  const uint nxu = (uint)nx, nyu = (uint)ny;
  // Element (r, c) of the row side is at row_at + r * rstride + dx * c: x' = jw + c - r.
  const int rstride = mirror ? (int)nxu + 1 : (int)nxu - 1, dx = mirror ? -1 : 1;
  for (ulong g = get_group_id(0); g < tiles; g += get_num_groups(0)) {
    const ulong z = g / tiles_per_plane;
    const uint rest = (uint)(g - z * tiles_per_plane);
    // Band b, tile j of it: in the order of the side the group stores, so that the groups
    // running together write adjacent runs of the same rows (dir 1: row-major over the
    // tiles) or of the same diagonals (dir 0: the tiles' own diagonals, b + j, in turn).
    uint b, j;
    if (dir == 0) {
      ulong tb, tj;
      dl_diag_elem(rest, per_band, bands, &tb, &tj);
      b = (uint)tb;
      j = (uint)tj;
    } else {
      b = rest / per_band;
      j = rest - b * per_band;
    }
    const uint y0 = b * T, jw = j * T;  // d0 = y0 + jw
    const ulong pbase = z * plane;
    // Diagonal y0 + jw + c's run starts at element (y0, x' = jw + c) of the plane.
    const ulong run0 = dl_diag_pos(y0, jw, nx, ny), diag0 = pbase + run0;
    if (lid < T) db[lid] = (uint)(dl_diag_pos(y0, jw + lid, nx, ny) - run0);
    // x' = jw - r of row y0 + r at c = 0 (the column itself: jw - r, or nx - 1 - jw + r).
    const ulong row_at = pbase + (ulong)y0 * nx + (mirror ? (ulong)(nxu - 1) - jw : (ulong)jw);
    const uint rows = min(T, nyu - y0);
    barrier(CLK_LOCAL_MEM_FENCE);
    // The row side's element (r, tx) and the diagonal side's (tx, c), k-th of this item.
    U v[DL_DIAG_PER];
    if (dir == 0) {
      const ulong at = sbase + row_at + dx * (int)tx;
      DL_DIAG_UNROLL for (uint k = 0; k < DL_DIAG_PER; ++k) {
        const uint r = ty + k * DL_DIAG_STEP;
        const bool in = r < rows && jw + tx - r < nxu;
        v[k] = src[in ? at + (int)r * rstride : sbase];
      }
      for (uint k = 0; k < DL_DIAG_PER; ++k) lds[(ty + k * DL_DIAG_STEP) * pitch + tx] = v[k];
      barrier(CLK_LOCAL_MEM_FENCE);
      const ulong to = dbase + diag0 + tx;
      for (uint k = 0; k < DL_DIAG_PER; ++k) {
        const uint c = ty + k * DL_DIAG_STEP;
        if (tx < rows && jw + c - tx < nxu) dst[to + db[c]] = lds[tx * pitch + c];
      }
    } else {
      const ulong at = sbase + diag0 + tx;
      DL_DIAG_UNROLL for (uint k = 0; k < DL_DIAG_PER; ++k) {
        const uint c = ty + k * DL_DIAG_STEP;
        const bool in = tx < rows && jw + c - tx < nxu;
        v[k] = src[in ? at + db[c] : sbase];
      }
      for (uint k = 0; k < DL_DIAG_PER; ++k) lds[tx * pitch + ty + k * DL_DIAG_STEP] = v[k];
      barrier(CLK_LOCAL_MEM_FENCE);
      const ulong to = dbase + row_at + dx * (int)tx;
      for (uint k = 0; k < DL_DIAG_PER; ++k) {
        const uint r = ty + k * DL_DIAG_STEP;
        if (r < rows && jw + tx - r < nxu) dst[to + (int)r * rstride] = lds[r * pitch + tx];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// The clipping copy: the h x w rectangle at (y0, x0) of every diagonalized plane to a
// row-major h x w array per plane (dir 0), or such arrays into their places in the
// diagonalized planes (dir 1, the rest of the planes untouched): a halo read out of, or
// written into, a diagonalized array without converting it. One work-item per unit of
// the rectangle (coalesced on its side).
__kernel void dl_diag_clip(__global const U* restrict src, ulong sbase, __global U* restrict dst,
                           ulong dbase, ulong ny, ulong nx, ulong planes, uint ru, uint dir,
                           uint mirror, ulong y0, ulong x0, ulong h, ulong w) {
  const ulong rect = h * w, total = planes * rect * ru;
  for (ulong t = get_global_id(0); t < total; t += get_global_size(0)) {
    const ulong e = t / ru, k = t - e * ru;
    const ulong z = e / rect, q = e - z * rect;
    const ulong y = y0 + q / w, x = x0 + q % w;
    const ulong at = (z * ny * nx + dl_diag_pos(y, mirror ? nx - 1 - x : x, nx, ny)) * ru + k;
    if (dir == 0)
      dst[dbase + t] = src[sbase + at];
    else
      dst[dbase + at] = src[sbase + t];
  }
}
