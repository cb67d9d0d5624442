// Breadth-first search shaped like Rodinia's bfs: a random graph of n nodes in CSR form,
// node records {start, count} (8 bytes) in AoS, an edge array, and per-node arrays mask,
// updating, visited (chars) and cost (ints). Two kernels per BFS level, as Rodinia has
// them; the host repeats levels until the flag `over` stays 0. BFS from node 0; the final
// cost[] must equal a CPU queue BFS's. The AoS application, and its kernels hand-written
// in AoS, DA and ASTA(T). Plain OpenCL.
//
//   dl-app-bfs [--n 1048576] [--degree 6] [--T 16,32,64] [--repeats 5] [--json f]
//              [--rewritten [label=]FILE,...]   (dl-annotate outputs of bfs.cl)
//   dl-app-bfs --mode app [--iters 10]   (the annotated AoS kernel only)
//
// Bench mode times a whole BFS (the sum of the kernel times of all its levels).
#include <chrono>
#include <cstdio>
#include <queue>

#include "app.hpp"

using nlohmann::json;

namespace {

constexpr unsigned kFields = 2;
constexpr std::size_t kLocal = 256;  // the global size is padded to a multiple of 256
const char* kRecord = "node 8 4 int:start@0 int:count@4";

/// A random graph in CSR form from a fixed seed: node i has 1..2*degree-1 edges (degree
/// on average) to uniformly random nodes (self loops and repeats allowed); nodes holds
/// {start, count} per node (AoS).
void make_graph(std::size_t n, unsigned degree, std::vector<int>& nodes, std::vector<int>& edges) {
  dlb::Rng rng(42);
  nodes.assign(n * kFields, 0);
  edges.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t count = 1 + std::size_t(rng.next() % (2 * degree - 1));
    if (edges.size() + count > std::size_t(0x7fffffff))
      throw std::runtime_error("more than 2^31-1 edges: lower --n or --degree");
    nodes[i * kFields + 0] = int(edges.size());
    nodes[i * kFields + 1] = int(count);
    for (std::size_t e = 0; e < count; ++e) edges.push_back(int(rng.next() % n));
  }
}

/// CPU reference: BFS levels from node 0 by a queue (-1: not reached).
std::vector<int> reference(const std::vector<int>& nodes, const std::vector<int>& edges,
                           std::size_t n) {
  std::vector<int> cost(n, -1);
  std::queue<int> q;
  cost[0] = 0;
  q.push(0);
  while (!q.empty()) {
    const int i = q.front();
    q.pop();
    const int first = nodes[std::size_t(i) * kFields], count = nodes[std::size_t(i) * kFields + 1];
    for (int e = first; e < first + count; ++e) {
      const int id = edges[std::size_t(e)];
      if (cost[std::size_t(id)] < 0) {
        cost[std::size_t(id)] = cost[std::size_t(i)] + 1;
        q.push(id);
      }
    }
  }
  return cost;
}

/// BFS levels are integers: the device's cost[] must equal the reference exactly.
void check(const std::vector<int>& got, const std::vector<int>& want, const std::string& what) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      dlb::fail("bfs " + what + ": cost[" + std::to_string(i) + "] is " + std::to_string(got[i]) +
                ", expected " + std::to_string(want[i]));
}

}  // namespace

int main(int argc, char** argv) try {
  dlb::Args args(argc, argv);
  auto o = dlb::parse_app_options(args, "bfs");
  const std::size_t n = std::size_t(args.num("n", 1 << 20));
  const long long degree = args.num("degree", 6);
  if (n < 1 || n > std::size_t(0x7fffffff)) throw std::runtime_error("--n must be 1..2^31-1");
  if (degree < 1 || degree > 1 << 20) throw std::runtime_error("--degree must be 1..2^20");
  dlb::Device d;
  dlb::open_device(d, o.platform, o.device);

  std::vector<int> nodes, edges;
  make_graph(n, unsigned(degree), nodes, edges);
  const auto want = reference(nodes, edges, n);
  std::size_t reached = 0;
  int depth = 0;
  for (int c : want)
    if (c >= 0) ++reached, depth = std::max(depth, c);
  std::printf("bfs on %s: %zu nodes, %zu edges, %zu reached from node 0 in %d levels\n",
              d.name.c_str(), n, edges.size(), reached, depth + 1);

  const std::size_t nbytes = nodes.size() * sizeof(int), ebytes = edges.size() * sizeof(int);
  const std::size_t cbytes = n * sizeof(int);
  const cl_int n_arg = cl_int(n);
  // The state before the BFS: node 0 is the frontier, visited, at level 0.
  std::vector<char> mask0(n, 0), visited0(n, 0);
  const std::vector<char> updating0(n, 0);
  std::vector<int> cost0(n, -1);
  mask0[0] = visited0[0] = 1;
  cost0[0] = 0;
  std::vector<int> cost(n);
  int levels = 0;  // of the last BFS: kernel pairs launched

  json out = dlb::app_json(d, o, "bfs", argc, argv);

  // Runs `src` with `opts` with the node records in the layout of width W; every BFS
  // starts from scratch, reads cost[] back and checks it. iters > 0: the application,
  // `iters` BFS, returns the mean kernel ms per BFS; iters == 0: returns the median
  // kernel ms of a BFS over repeated ones (after a warm-up).
  auto run = [&](const std::string& src, const std::string& opts, std::size_t W, int iters,
                 const std::string& what, double* wall_ms) {
    const auto t0 = std::chrono::steady_clock::now();
    cl_program p = dlb::build_program(d, src, opts);
    cl_kernel k1 = dlb::make_kernel(p, "bfs_kernel1");
    cl_kernel k2 = dlb::make_kernel(p, "bfs_kernel2");
    cl_mem nodes_buf = dlb::make_buffer(d, nbytes, CL_MEM_READ_ONLY);
    cl_mem edges_buf = dlb::make_buffer(d, ebytes, CL_MEM_READ_ONLY);
    cl_mem mask_buf = dlb::make_buffer(d, n);
    cl_mem updating_buf = dlb::make_buffer(d, n);
    cl_mem visited_buf = dlb::make_buffer(d, n);
    cl_mem cost_buf = dlb::make_buffer(d, cbytes);
    cl_mem over_buf = dlb::make_buffer(d, sizeof(cl_int));
    const auto in = dlb::to_tiled(nodes, kFields, n, W);
    dlb::write(d, nodes_buf, in.data(), nbytes);
    dlb::write(d, edges_buf, edges.data(), ebytes);
    dlb::set_arg(k1, 0, nodes_buf);
    dlb::set_arg(k1, 1, edges_buf);
    dlb::set_arg(k1, 2, mask_buf);
    dlb::set_arg(k1, 3, updating_buf);
    dlb::set_arg(k1, 4, visited_buf);
    dlb::set_arg(k1, 5, cost_buf);
    dlb::set_arg(k1, 6, n_arg);
    dlb::set_arg(k2, 0, mask_buf);
    dlb::set_arg(k2, 1, updating_buf);
    dlb::set_arg(k2, 2, visited_buf);
    dlb::set_arg(k2, 3, over_buf);
    dlb::set_arg(k2, 4, n_arg);
    // One BFS from node 0: the sum of the kernel ms of its levels.
    auto bfs = [&] {
      dlb::write(d, mask_buf, mask0.data(), n);
      dlb::write(d, updating_buf, updating0.data(), n);
      dlb::write(d, visited_buf, visited0.data(), n);
      dlb::write(d, cost_buf, cost0.data(), cbytes);
      double ms = 0;
      levels = 0;
      for (cl_int over = 1; over;) {
        if (std::size_t(levels) > n)  // every level reaches a new node
          dlb::fail("bfs " + what + ": no end after " + std::to_string(levels) + " levels");
        over = 0;
        dlb::write(d, over_buf, &over, sizeof over);
        cl_event e1 = dlb::launch_1d(d, k1, n, kLocal);
        cl_event e2 = dlb::launch_1d(d, k2, n, kLocal);
        dlb::read(d, over_buf, &over, sizeof over);
        ms += dlb::event_ms(e1) + dlb::event_ms(e2);
        clReleaseEvent(e1);
        clReleaseEvent(e2);
        ++levels;
      }
      dlb::read(d, cost_buf, cost.data(), cbytes);  // last read: the result's FNV
      check(cost, want, what);
      if (levels != depth + 1)
        dlb::fail("bfs " + what + ": " + std::to_string(levels) + " levels, expected " +
                  std::to_string(depth + 1));
      return ms;
    };
    double ms = 0;
    if (iters > 0) {  // the application: `iters` BFS
      for (int it = 0; it < iters; ++it) ms += bfs() / iters;
    } else {
      std::vector<double> t;
      for (int r = -1; r < o.repeats; ++r) {
        const double m = bfs();
        if (r >= 0) t.push_back(m);
      }
      ms = dlb::median(t);
    }
    if (wall_ms)
      *wall_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    for (cl_mem m : {nodes_buf, edges_buf, mask_buf, updating_buf, visited_buf, cost_buf, over_buf})
      clReleaseMemObject(m);
    clReleaseKernel(k1);
    clReleaseKernel(k2);
    clReleaseProgram(p);
    return ms;
  };

  const std::string annotated = dlb::read_text(o.kernel);
  const std::string case_name = "n=" + std::to_string(n) + ",degree=" + std::to_string(degree);
  if (o.mode == "app") {
    double wall = 0;
    const double ms = run(annotated, "", 1, o.iters, "app", &wall);
    std::printf("app mode: %d BFS of %d levels, %.3f ms per BFS, %.1f ms wall, check ok\n", o.iters,
                levels, ms, wall);
    out["cases"] = json::array({{{"case", case_name},
                                 {"n", n},
                                 {"edges", edges.size()},
                                 {"degree", degree},
                                 {"reached", reached},
                                 {"levels", levels},
                                 {"iters", o.iters},
                                 {"kernel_ms", ms},
                                 {"wall_ms", wall},
                                 {"result_fnv", dlb::last_read_fnv()}}});
    out["under_dl"] = dlb::under_dl();
    dlb::write_json(o.json, out);
    return 0;
  }
  const std::string src = dlb::variant_source(o, "bfs");
  json c{{"case", case_name},     {"n", n},
         {"edges", edges.size()}, {"degree", degree},
         {"reached", reached},    {"levels", depth + 1}};
  dlb::bench_case(o, n, kFields * sizeof(int), src, annotated, "", c,
                  [&](const std::string& s, const std::string& opts, std::size_t W,
                      const std::string& what) { return run(s, opts, W, 0, what, nullptr); });
  c["check"] = "ok";
  c["buffers"] =
      json::array({{{"name", "nodes"}, {"record", kRecord}, {"n", n}, {"readback", false}}});
  out["cases"] = json::array({c});
  std::printf("all layouts match the CPU reference\n");
  dlb::write_json(o.json, out);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "dl-app-bfs: %s\n", e.what());
  return 2;
}
