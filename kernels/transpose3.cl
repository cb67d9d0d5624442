// DL marshaling kernels: DA <-> AoS in place as three passes (dl::ThreePass in
// include/dl/cycles.hpp). DA of a record whose every slot is one unit is the row-major
// m x n unit matrix (m = units per record, n = records); AoS is its transpose. Each pass
// permutes inside every column or inside every row only, so lines are independent:
//   dl_tp_cols: a work-group takes a band of W consecutive columns (m x W units, rows
//     read and written coalesced) into local memory, barrier, writes it back permuted
//     inside each column (pass 1, its inverse, pass 3 or its inverse: `mode`);
//   dl_tp_rows: a work-group takes a whole row (n units). When it fits local memory
//     (`lunits`), it is read and written in order and permuted in local memory; otherwise
//     its first `lunits` units go to local memory and the rest to registers (DL_TP_K per
//     work-item), and the stores scatter (pass 2) or the loads gather (its inverse).
//     Every load of the row precedes every store.
// No scratch, no atomics; one barrier per band or row.
#ifndef DL_TP_K
#define DL_TP_K (DL_UNIT_BYTES >= 16 ? 6 : (DL_UNIT_BYTES == 8 ? 12 : 24))
#endif

typedef struct {
  uint m, n;
  dl_div dm, dn, db;
} dl_tp;

inline dl_tp dl_tp_make(uint m, uint n, uint b) {
  dl_tp t;
  t.m = m;
  t.n = n;
  t.dm = dl_div_make(m);
  t.dn = dl_div_make(n);
  t.db = dl_div_make(b);
  return t;
}

// Pass 1: row r of column j receives row (r + j / b) mod m (j / b < gcd(m, n) <= m).
inline uint dl_tp_rotate(dl_tp t, uint r, uint j) {
  const uint s = r + dl_udiv(j, t.db);
  return s >= t.m ? s - t.m : s;
}
inline uint dl_tp_unrotate(dl_tp t, uint r, uint j) {
  const uint k = dl_udiv(j, t.db);
  return r >= k ? r - k : r + t.m - k;
}
// Pass 2: column j of row r moves to column (j m + rotate(r, j)) mod n.
inline uint dl_tp_row(dl_tp t, uint r, uint j) {
  const uint x = j * t.m + dl_tp_rotate(t, r, j);
  return x - dl_udiv(x, t.dn) * t.n;
}
// Pass 3: row y of column d receives row (q mod m - (q / m) / b) mod m, q = y n + d.
inline uint dl_tp_col(dl_tp t, uint y, uint d) {
  const uint q = y * t.n + d;
  const uint qd = dl_udiv(q, t.dm);
  const uint qm = q - qd * t.m;
  const uint k = dl_udiv(qd, t.db);
  return qm >= k ? qm - k : qm + t.m - k;
}

#define DL_TP_ROTATE 0
#define DL_TP_UNROTATE 1
#define DL_TP_SHUFFLE 2
#define DL_TP_UNSHUFFLE 3

__kernel void dl_tp_cols(__global U* buf, ulong base, uint m, uint n, uint b, uint W, uint mode,
                         __local U* lds) {
  const dl_tp t = dl_tp_make(m, n, b);
  const dl_div dw = dl_div_make(W);
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const uint bands = (n + W - 1) / W, count = m * W;
  for (uint band = get_group_id(0); band < bands; band += get_num_groups(0)) {
    const uint c0 = band * W;
    for (uint e = lid; e < count; e += lsz) {
      const uint y = dl_udiv(e, dw), c = e - y * W, d = c0 + c;
      if (d < n) {
        const uint to = mode == DL_TP_UNSHUFFLE ? dl_tp_col(t, y, d) * W + c : e;
        lds[to] = buf[base + (ulong)y * n + d];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint e = lid; e < count; e += lsz) {
      const uint y = dl_udiv(e, dw), c = e - y * W, d = c0 + c;
      if (d < n) {
        uint from = e;
        if (mode == DL_TP_ROTATE)
          from = dl_tp_rotate(t, y, d) * W + c;
        else if (mode == DL_TP_UNROTATE)
          from = dl_tp_unrotate(t, y, d) * W + c;
        else if (mode == DL_TP_SHUFFLE)
          from = dl_tp_col(t, y, d) * W + c;
        buf[base + (ulong)y * n + d] = lds[from];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// inv 0: pass 2; 1: its inverse. Needs n <= lunits + DL_TP_K * local size.
__kernel void dl_tp_rows(__global U* buf, ulong base, uint m, uint n, uint b, uint inv,
                         __local U* lds, uint lunits) {
  const dl_tp t = dl_tp_make(m, n, b);
  const uint lid = get_local_id(0), lsz = get_local_size(0);
  const uint nl = min(n, lunits);
  for (uint r = get_group_id(0); r < m; r += get_num_groups(0)) {
    __global U* row = buf + base + (ulong)r * n;
    if (n <= lunits) {  // the whole row in local memory: global accesses in order
      for (uint j = lid; j < n; j += lsz) lds[inv ? j : dl_tp_row(t, r, j)] = row[j];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (uint j = lid; j < n; j += lsz) row[j] = lds[inv ? dl_tp_row(t, r, j) : j];
      barrier(CLK_LOCAL_MEM_FENCE);
      continue;
    }
    for (uint j = lid; j < nl; j += lsz) lds[j] = row[inv ? dl_tp_row(t, r, j) : j];
    U v[DL_TP_K];
#pragma unroll
    for (uint k = 0; k < DL_TP_K; ++k) {
      const uint j = nl + lid + k * lsz;
      if (j < n) v[k] = row[inv ? dl_tp_row(t, r, j) : j];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint j = lid; j < nl; j += lsz) row[inv ? j : dl_tp_row(t, r, j)] = lds[j];
#pragma unroll
    for (uint k = 0; k < DL_TP_K; ++k) {
      const uint j = nl + lid + k * lsz;
      if (j < n) row[inv ? j : dl_tp_row(t, r, j)] = v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
