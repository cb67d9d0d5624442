// The case model: shapes, kernel names, families, op subsets and the readable text.
#include "case.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace dl_diff {

const ShapeInfo& info(Shape s) {
  static const ShapeInfo table[kShapes] = {
      {"fd", "{float; double}", 16, false, true}, {"cis", "{char; int; short}", 12, false, true},
      {"f4i", "{float4; int}", 32, false, true},  {"3", "float[3]", 12, true, true},
      {"5", "float[5]", 20, true, true},          {"u32", "uint", 4, false, false},
  };
  return table[static_cast<int>(s)];
}

std::string kernel_name(Form f, Shape s) {
  const ShapeInfo& i = info(s);
  if (f == Form::Bump) return "bump";
  if (f == Form::Gather) return "gath";
  if (f == Form::Map) return "umap";
  if (!i.record) return "";
  if (f == Form::Whole) return i.flat ? "" : std::string("whole_") + i.name;
  if (f == Form::Emit) return i.flat ? std::string("femit_") + i.name : "";
  if (f == Form::UpdK) return i.flat ? "fupdk" : "";
  if (f == Form::UpdTK) return i.flat ? "fupdtk" : "";
  if (f == Form::SwapK) return i.flat ? "fswapk" : "";
  if (f == Form::SwapD) return i.flat ? "fswapd" : "";
  if (f == Form::DiagK) return i.flat ? "fdiagk" : "";
  if (f == Form::DiagMK) return i.flat ? "fdiagmk" : "";
  if (f == Form::SumSwapD) return i.flat ? "fswapsum" : "";
  if (f == Form::SumSwapK) return i.flat ? "fswapksum" : "";
  if (f == Form::SumDiag) return i.flat ? "fdiagsum" : "";
  if (f == Form::SumK) return i.flat ? "fsumk" : "";
  if (f == Form::Dims) return std::string(i.flat ? "fdcap_" : "dcap_") + i.name;
  if (i.flat) {
    switch (f) {
      case Form::Upd:
        return std::string("fupd_") + i.name;
      case Form::UpdDA:
        return std::string("fupdda_") + i.name;
      case Form::UpdG:
        return std::string("fupdg_") + i.name;
      case Form::Cap:
        return std::string("fcap_") + i.name;
      case Form::Sum:
        return std::string("fsum_") + i.name;
      case Form::Pair:
        return std::string("fpair_") + i.name;
      case Form::Plain:
        return std::string("fplain_") + i.name;
      default:
        return "";
    }
  }
  static const char* prefix[] = {"upd_", "updda_", "updt_", "updg_", "cap_",
                                 "sum_", "pair_",  "half_", "plain_"};
  return std::string(prefix[static_cast<int>(f)]) + i.name;
}

const char* form_text(Form f) {
  static const char* t[] = {"p[n]",
                            "p[n] -> DA",
                            "p[n] -> ASTA(8)",
                            "p[global_size(0)]",
                            "p[n], if (i < cap)",
                            "const p[n]",
                            "a[n], b[n]",
                            "a[n], plain b",
                            "no annotation",
                            "plain program",
                            "p[n], whole records (AoS kept)",
                            "write_only g[n][S]",
                            "g[n][K], K an argument",
                            "const g[n][K], K an argument",
                            "p[d.count], d by value, if (i < cap)",
                            "g[n][K] -> ASTA(t), K and t arguments",
                            "g[m][t][K][J] -> [m][K][t][J], arguments",
                            "g[m][t][K] -> DIAG, arguments",
                            "g[m][t][K] -> DIAG_MAIN, arguments",
                            "gather: x[idx], bytes",
                            "map: x[scramble], bytes, s an argument",
                            "g[m][t][K][J] -> [m][J][K][t], arguments",
                            "const g[m][t][K][J] -> [m][J][K][t], arguments",
                            "const g[m][t][K] -> DIAG, arguments",
                            "const g[m][t][K][J] -> [m][K][t][J], arguments"};
  static_assert(sizeof t / sizeof *t == static_cast<int>(Form::SumSwapK) + 1, "one text per form");
  return t[static_cast<int>(f)];
}

const std::vector<std::string>& all_families() {
  static const std::vector<std::string> f = {"basic",   "bounds", "queues", "threads",
                                             "maps",    "subbuf", "uevent", "hostptr",
                                             "program", "image",  "churn"};
  return f;
}

std::vector<std::string> parse_families(const std::string& list) {
  if (list.empty() || list == "all") return all_families();
  std::vector<std::string> out;
  std::stringstream s(list);
  std::string f;
  while (std::getline(s, f, ',')) {
    if (f.empty()) continue;
    if (std::find(all_families().begin(), all_families().end(), f) == all_families().end()) {
      std::string known;
      for (const auto& k : all_families()) known += (known.empty() ? "" : ",") + k;
      throw std::invalid_argument("unknown family '" + f + "' (known: " + known + ")");
    }
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(f);
  }
  if (out.empty()) throw std::invalid_argument("no family in '" + list + "'");
  return out;
}

Case restrict_ops(const Case& c, const std::vector<int>& keep) {
  Case r = c;
  r.ops.clear();
  for (const Op& op : c.ops)
    if (std::binary_search(keep.begin(), keep.end(), op.id)) r.ops.push_back(op);
  return r;
}

std::vector<int> parse_ids(const std::string& text) {
  std::vector<int> ids;
  std::stringstream s(text);
  std::string part;
  auto number = [&](const std::string& t) {
    std::size_t used = 0;
    int v = -1;
    try {
      v = std::stoi(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != t.size() || v < 0)
      throw std::invalid_argument("bad op id '" + t + "' in '" + text + "'");
    return v;
  };
  while (std::getline(s, part, ',')) {
    if (part.empty()) continue;
    auto dash = part.find('-');
    if (dash == std::string::npos) {
      ids.push_back(number(part));
    } else {
      int a = number(part.substr(0, dash)), b = number(part.substr(dash + 1));
      if (b < a) throw std::invalid_argument("bad op range '" + part + "'");
      for (int i = a; i <= b; ++i) ids.push_back(i);
    }
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::string format_ids(const std::vector<int>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += std::to_string(ids[i]);
    if (j > i) out += (j == i + 1 ? "," : "-") + std::to_string(ids[j]);
    i = j + 1;
  }
  return out;
}

namespace {

std::string range(std::size_t off, std::size_t size) {
  return "[" + std::to_string(off) + ", +" + std::to_string(size) + ")";
}

std::string launch_text(const Op& op) {
  std::ostringstream s;
  const char* prog[] = {"", "family:", "binary:"};
  s << prog[static_cast<int>(op.prog)] << kernel_name(op.form, op.shape) << "(b" << op.buf;
  switch (op.form) {
    case Form::UpdG:
      s << ", k=" << op.k;
      break;
    case Form::Cap:
      s << ", n=" << op.n << ", cap=" << op.cap << ", k=" << op.k;
      break;
    case Form::Sum:
      s << ", n=" << op.n << ", out=b" << op.buf2;
      break;
    case Form::Gather:
      s << ", idx=b" << op.buf3 << ", out=b" << op.buf2 << ", m=" << op.n << ", k=" << op.k;
      break;
    case Form::Map:
      s << ", out=b" << op.buf2 << ", m=" << op.n << ", s=" << op.row << ", k=" << op.k;
      break;
    case Form::Pair:
    case Form::Half:
      s << ", b" << op.buf2 << ", n=" << op.n << ", k=" << op.k;
      break;
    case Form::Bump:
      s << ", bytes=" << op.n << ", k=" << op.k;
      break;
    case Form::UpdK:
      s << ", n=" << op.n << ", K=" << op.len << ", k=" << op.k;
      break;
    case Form::SumK:
      s << ", n=" << op.n << ", K=" << op.len << ", out=b" << op.buf2;
      break;
    case Form::UpdTK:
      s << ", n=" << op.n << ", K=" << op.len << ", t=" << op.tile << ", k=" << op.k;
      break;
    case Form::SwapK:
    case Form::SwapD:
      s << ", m=" << op.n << ", t=" << op.tile << ", K=" << op.len << ", J=" << op.row
        << ", k=" << op.k;
      break;
    case Form::SumSwapD:
    case Form::SumSwapK:
      s << ", m=" << op.n << ", t=" << op.tile << ", K=" << op.len << ", J=" << op.row << ", out=b"
        << op.buf2;
      break;
    case Form::DiagK:
    case Form::DiagMK:
      s << ", m=" << op.n << ", t=" << op.tile << ", K=" << op.len << ", k=" << op.k;
      break;
    case Form::SumDiag:
      s << ", m=" << op.n << ", t=" << op.tile << ", K=" << op.len << ", out=b" << op.buf2;
      break;
    case Form::Dims:
      s << ", d={k=" << op.k << ", count=" << static_cast<std::uint32_t>(op.n)
        << "}, cap=" << op.cap;
      break;
    default:
      s << ", n=" << op.n << ", k=" << op.k;
      break;
  }
  s << ") g=" << op.g << " l=" << (op.l ? std::to_string(op.l) : std::string("NULL")) << "  //"
    << form_text(op.form);
  return s.str();
}

}  // namespace

std::string print(const Op& op) {
  std::ostringstream s;
  s << "#" << op.id << " ";
  if (op.phase == 1) s << "[thread " << op.thread << "] ";
  if (op.phase == 2) s << "[after join] ";
  const std::string q = "q" + std::to_string(op.queue) + " ";
  const std::string ev = op.event ? " +event" : "";
  const std::string blk = op.blocking ? " blocking" : " non-blocking";
  switch (op.kind) {
    case OpKind::Create: {
      const char* mem[] = {"COPY_HOST_PTR", "USE_HOST_PTR", "no host ptr + write",
                           "ALLOC|COPY_HOST_PTR", "no host ptr + write_only kernel on all"};
      s << "create b" << op.buf << ": " << op.records << " x " << info(op.shape).text << " ("
        << info(op.shape).size << " B)";
      if (op.slack) s << " + " << op.slack << " B";
      s << ", " << mem[static_cast<int>(op.mem)] << (op.read_only ? ", READ_ONLY" : "") << ", seed "
        << op.seed;
      break;
    }
    case OpKind::Sub:
      s << "sub-buffer b" << op.buf << " = b" << op.buf2 << range(op.off, op.size);
      break;
    case OpKind::Release:
      s << "release b" << op.buf;
      break;
    case OpKind::Launch:
      s << q << "launch " << launch_text(op) << ev;
      break;
    case OpKind::Read:
      s << q << "read b" << op.buf << range(op.off, op.size) << blk << ev;
      break;
    case OpKind::ReadRect:
      s << q << "read-rect b" << op.buf << " origin (" << op.rect[0] << " B, row " << op.rect[1]
        << ") region " << op.rect[2] << " B x " << op.rect[3] << " rows, pitch " << op.rect[4]
        << ", host pitch " << op.rect[5] << blk << ev;
      break;
    case OpKind::Write:
      s << q << "write b" << op.buf << range(op.off, op.size) << blk << ", seed " << op.seed << ev;
      break;
    case OpKind::Fill:
      s << q << "fill b" << op.buf << range(op.off, op.size) << " with a " << op.pattern
        << "-byte pattern, ";
      if (op.fill_byte >= 0)
        s << "every byte " << op.fill_byte << ev;
      else
        s << "seed " << op.seed << ev;
      break;
    case OpKind::Copy:
      s << q << "copy b" << op.buf << range(op.off, op.size) << " -> b" << op.buf2 << " at "
        << op.off2 << ev;
      break;
    case OpKind::Map: {
      const char* k[] = {"READ", "WRITE", "WRITE_INVALIDATE_REGION"};
      s << q << "map m" << op.map << " = b" << op.buf << range(op.off, op.size) << " "
        << k[static_cast<int>(op.map_kind)] << blk << ev;
      if (op.map_kind != MapKind::Read) s << ", host writes seed " << op.seed;
      break;
    }
    case OpKind::Unmap:
      s << "unmap m" << op.map << " (mapped bytes observed first)";
      break;
    case OpKind::Finish:
      s << q << "finish (pending reads observed)";
      break;
    case OpKind::ObserveHost:
      s << "observe the host array of b" << op.buf;
      if (op.size)
        s << ", then write seed " << op.seed << " into its bytes [" << op.off << ", "
          << op.off + op.size << ") directly";
      break;
    case OpKind::UserEvent:
      s << "launch " << launch_text(op) << " on a new queue like q" << op.queue
        << ", waiting on a user event, then status "
        << (op.status == 0 ? std::string("CL_COMPLETE") : std::to_string(op.status))
        << (op.follow ? "; a non-blocking read of b" + std::to_string(op.buf) + " chained after it"
                      : std::string(""));
      break;
    case OpKind::Image:
      s << q << "image1d_buffer over b" << op.buf << " (" << op.pattern
        << "-byte pixels), read pixels " << range(op.off, op.size);
      break;
    case OpKind::Binary:
      s << "family program: observe CL_PROGRAM_BUILD_OPTIONS, create a program from "
           "CL_PROGRAM_BINARIES and build it";
      break;
    case OpKind::Rebuild:
      s << "rebuild the family program while its kernel " << kernel_name(Form::Upd, op.shape)
        << " exists";
      break;
  }
  return s.str();
}

std::string print(const Case& c) {
  std::ostringstream s;
  s << "case " << c.index << " of seed " << c.seed << ": family " << c.family << ", " << c.threads
    << (c.threads == 1 ? " host thread" : " host threads") << ", queues:";
  for (std::size_t q = 0; q < c.queues.size(); ++q)
    s << " q" << q << (c.queues[q].in_order ? " in-order" : " out-of-order")
      << (c.threads > 1 ? " (thread " + std::to_string(c.queues[q].thread) + ")" : "")
      << (c.queues[q].device ? " on device " + std::to_string(c.queues[q].device) : "");
  s << "\n";
  for (const Op& op : c.ops) s << "  " << print(op) << "\n";
  s << "  (end: finish every queue, unmap open maps, read every live buffer, release all, "
       "observe host arrays and event statuses)\n";
  return s.str();
}

}  // namespace dl_diff
