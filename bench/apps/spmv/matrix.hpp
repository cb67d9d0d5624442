// ELL matrices for dl-app-spmv: Matrix Market files (symmetric storage expanded) and
// synthetic matrices with a given shape (rows x max nonzeros per row).
#pragma once

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "clbench.hpp"

namespace spmv {

struct Ell {
  std::string name;
  std::size_t rows = 0, cols = 0, nnz = 0, K = 0;
  std::vector<float> val;  // rows x K, row-major (each row's entries together)
  std::vector<int> col;    // rows x K; padding entries: value 0, column = row
};

struct Coo {
  std::size_t rows = 0, cols = 0;
  std::vector<std::size_t> r, c;
  std::vector<float> v;
};

inline Ell to_ell(const std::string& name, const Coo& m) {
  Ell e;
  e.name = name;
  e.rows = m.rows;
  e.cols = m.cols;
  e.nnz = m.v.size();
  std::vector<std::size_t> len(m.rows, 0);
  for (std::size_t i = 0; i < m.r.size(); ++i) ++len[m.r[i]];
  e.K = std::max<std::size_t>(1, *std::max_element(len.begin(), len.end()));
  e.val.assign(e.rows * e.K, 0.0f);
  e.col.resize(e.rows * e.K);
  for (std::size_t i = 0; i < e.rows; ++i)
    for (std::size_t k = 0; k < e.K; ++k) e.col[i * e.K + k] = int(std::min(i, e.cols - 1));
  std::fill(len.begin(), len.end(), 0);
  for (std::size_t i = 0; i < m.r.size(); ++i) {
    const std::size_t row = m.r[i], k = len[row]++;
    e.val[row * e.K + k] = m.v[i];
    e.col[row * e.K + k] = int(m.c[i]);
  }
  return e;
}

/// Reads a coordinate Matrix Market file (real/integer/pattern, general/symmetric).
inline Ell read_matrix_market(const std::string& path, const std::string& name) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read matrix " + path);
  std::string line;
  std::getline(in, line);
  std::string lower = line;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  if (lower.rfind("%%matrixmarket matrix coordinate", 0) != 0)
    throw std::runtime_error(path + ": not a coordinate Matrix Market file");
  const bool pattern = lower.find("pattern") != std::string::npos;
  const bool symmetric =
      lower.find("symmetric") != std::string::npos || lower.find("hermitian") != std::string::npos;
  const bool skew = lower.find("skew-symmetric") != std::string::npos;
  while (std::getline(in, line) && (line.empty() || line[0] == '%')) {
  }
  Coo m;
  std::size_t entries = 0;
  std::istringstream(line) >> m.rows >> m.cols >> entries;
  for (std::size_t e = 0; e < entries; ++e) {
    std::size_t i = 0, j = 0;
    double v = 1.0;
    if (!(in >> i >> j)) throw std::runtime_error(path + ": truncated");
    if (!pattern) in >> v;
    m.r.push_back(i - 1), m.c.push_back(j - 1), m.v.push_back(float(v));
    if ((symmetric || skew) && i != j)  // expand the stored triangle
      m.r.push_back(j - 1), m.c.push_back(i - 1), m.v.push_back(float(skew ? -v : v));
  }
  return to_ell(name, m);
}

/// A random matrix with `rows` rows of 1..K nonzeros (row 0 has exactly K).
inline Ell synthetic(const std::string& name, std::size_t rows, std::size_t K) {
  Coo m;
  m.rows = m.cols = rows;
  dlb::Rng rng(rows * 1315423911ull + K);
  for (std::size_t i = 0; i < rows; ++i) {
    const std::size_t len = i == 0 ? K : 1 + rng.next() % K;
    for (std::size_t k = 0; k < len; ++k) {
      m.r.push_back(i);
      m.c.push_back(rng.next() % rows);
      m.v.push_back(rng.uniform(-1.0f, 1.0f) + (rng.next() & 1 ? 1.5f : -1.5f));
    }
  }
  return to_ell(name, m);
}

/// The shapes of the DL paper's Table 1 (rows x max nonzeros per row).
struct Shape {
  const char* name;
  std::size_t rows, K;
};
inline const std::vector<Shape>& table1() {
  static const std::vector<Shape> s = {{"bcsstk18", 11948, 40},  {"e40r0000", 17281, 62},
                                       {"bcsstk31", 35588, 197}, {"bcsstk32", 44609, 215},
                                       {"s3dkq4m2", 90449, 59},  {"conf6.0", 49152, 39}};
  return s;
}

}  // namespace spmv
