// Scanner for //DL: annotations and the kernels they precede (docs/annotation.md).
#include "dl/annotation.hpp"

#include <cctype>
#include <limits>
#include <set>

#include "text.hpp"

namespace dl {
namespace {

bool is_ident(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

struct Line {
  int number = 0;
  std::size_t begin = 0;  // offset of the line in the source
  std::string_view text;
};

/// Source with comments and string literals blanked (same length, newlines kept), so
/// that kernel signatures can be found with plain text search.
std::string blank_comments(std::string_view s) {
  std::string o(s);
  std::size_t i = 0;
  while (i < o.size()) {
    if (o.compare(i, 2, "//") == 0) {
      while (i < o.size() && o[i] != '\n') o[i++] = ' ';
    } else if (o.compare(i, 2, "/*") == 0) {
      std::size_t e = o.find("*/", i + 2);
      e = e == std::string::npos ? o.size() : e + 2;
      for (; i < e; ++i)
        if (o[i] != '\n') o[i] = ' ';
    } else if (o[i] == '"' || o[i] == '\'') {
      char q = o[i++];
      while (i < o.size() && o[i] != q && o[i] != '\n') {
        if (o[i] == '\\' && i + 1 < o.size()) o[i++] = ' ';
        o[i++] = ' ';
      }
      ++i;
    } else {
      ++i;
    }
  }
  return o;
}

/// Blanks preprocessor directive lines (with their backslash continuations) of blanked
/// text, in place: a kernel spelled in a #define is no definition, and a conditional in a
/// parameter list is no parameter. Returns the [begin, end) ranges blanked.
std::vector<std::pair<std::size_t, std::size_t>> blank_directives(std::string& b) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t pos = 0; pos < b.size();) {
    std::size_t first = b.find_first_not_of(" \t\r", pos);
    std::size_t end = b.find('\n', pos);
    if (end == std::string::npos) end = b.size();
    if (first < end && b[first] == '#') {
      // A directive ends at the first newline not preceded by a backslash.
      while (end < b.size()) {
        std::size_t last = b.find_last_not_of(" \t\r", end - 1);
        if (last == std::string::npos || last < first || b[last] != '\\') break;
        end = b.find('\n', end + 1);
        if (end == std::string::npos) end = b.size();
      }
      for (std::size_t i = first; i < end; ++i)
        if (b[i] != '\n') b[i] = ' ';
      out.emplace_back(first, end);
    }
    pos = end + 1;
  }
  return out;
}

/// For each line (index 1 on), whether it begins inside a block comment or a line
/// comment continued by a backslash: a `//DL:` there is commented out, no annotation.
std::vector<bool> lines_in_comments(std::string_view s) {
  std::vector<bool> out{false, false};
  enum { Code, Block, LineComment, Literal } st = Code;
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i], next = i + 1 < s.size() ? s[i + 1] : '\0';
    if (c == '\n') {
      const bool continued =
          i > 0 && (s[i - 1] == '\\' || (s[i - 1] == '\r' && i > 1 && s[i - 2] == '\\'));
      if ((st == LineComment && !continued) || st == Literal) st = Code;
      out.push_back(st != Code);
      continue;
    }
    switch (st) {
      case Code:
        if (c == '/' && next == '/')
          st = LineComment, ++i;
        else if (c == '/' && next == '*')
          st = Block, ++i;
        else if (c == '"' || c == '\'')
          st = Literal, quote = c;
        break;
      case Block:
        if (c == '*' && next == '/') st = Code, ++i;
        break;
      case Literal:
        if (c == '\\' && next != '\n')
          ++i;
        else if (c == quote)
          st = Code;
        break;
      case LineComment:
        break;
    }
  }
  return out;
}

struct KernelSig {
  std::string name;
  std::vector<std::string> params;
  bool params_exact = true;  // see KernelAnnotation::params_exact
  std::size_t offset = 0;
};

/// Finds `__kernel`/`kernel` function definitions (and declarations) in blanked text
/// whose `directives` (ranges) are blanked too.
std::vector<KernelSig> find_kernels(
    const std::string& b, const std::vector<std::pair<std::size_t, std::size_t>>& directives) {
  std::vector<KernelSig> out;
  for (std::size_t i = 0; i < b.size(); ++i) {
    std::size_t kw = 0;
    if (b.compare(i, 8, "__kernel") == 0)
      kw = 8;
    else if (b.compare(i, 6, "kernel") == 0)
      kw = 6;
    if (!kw || (i > 0 && is_ident(b[i - 1])) || (i + kw < b.size() && is_ident(b[i + kw])))
      continue;
    std::size_t open = b.find('(', i + kw);
    if (open == std::string::npos) break;
    // Skip __attribute__((...)) groups between the keyword and the name.
    std::size_t j = i + kw;
    std::string head;
    while (j < b.size()) {
      std::size_t at = b.find("__attribute__", j);
      if (at != std::string::npos && at < open) {
        std::size_t p = b.find('(', at);
        int depth = 0;
        std::size_t k = p;
        for (; k < b.size(); ++k) {
          if (b[k] == '(')
            ++depth;
          else if (b[k] == ')' && --depth == 0)
            break;
        }
        head += b.substr(j, at - j);
        j = k + 1;
        open = b.find('(', j);
        if (open == std::string::npos) return out;
        continue;
      }
      head += b.substr(j, open - j);
      break;
    }
    std::size_t e = head.find_last_not_of(" \t\r\n");
    if (e == std::string::npos) continue;
    std::size_t s = e;
    while (s > 0 && is_ident(head[s - 1])) --s;
    KernelSig k;
    k.name = head.substr(s, e - s + 1);
    k.offset = i;
    int depth = 0;
    std::size_t p = open, start = open + 1;
    for (; p < b.size(); ++p) {
      char c = b[p];
      if (c == '(' || c == '[')
        ++depth;
      else if (c == ')' || c == ']') {
        if (--depth == 0) break;
      } else if (c == ',' && depth == 1) {
        k.params.push_back(b.substr(start, p - start));
        start = p + 1;
      }
    }
    if (p > start) k.params.push_back(b.substr(start, p - start));
    // The text is the compiled list only when no directive (a conditional) lies in it
    // and every parameter is a declaration `type name`, not a macro standing for some.
    for (const auto& [db, de] : directives)
      if (db < p && de > open) k.params_exact = false;
    for (auto& param : k.params) {
      std::string t = param;
      std::size_t br = t.find('[');
      if (br != std::string::npos) t.resize(br);
      std::size_t pe = t.find_last_not_of(" \t\r\n");
      std::size_t ps = pe == std::string::npos ? 0 : pe;
      while (ps > 0 && is_ident(t[ps - 1])) --ps;
      param = pe == std::string::npos ? std::string() : t.substr(ps, pe - ps + 1);
      const bool named = !param.empty() && is_ident(param.back()) &&
                         (std::isalpha(static_cast<unsigned char>(param[0])) || param[0] == '_');
      if (!named || t.find_first_not_of(" \t\r\n") >= ps) k.params_exact = false;
    }
    if (k.params.size() == 1 && (k.params[0] == "void" || k.params[0].empty())) {
      k.params.clear();
      k.params_exact = true;
    }
    out.push_back(std::move(k));
    i = p;
  }
  return out;
}

class ClauseParser {
 public:
  ClauseParser(std::string_view text, int line, int col0, std::vector<AnnotationDiagnostic>& d)
      : t_(text), line_(line), col0_(col0), diags_(d) {}

  /// Parses `AoS: buf, buf ... ; local: buf ... ; gather: x[col] ...`. Returns false after
  /// reporting an error.
  bool parse(std::vector<BufferAnnotation>& out, std::vector<LocalAnnotation>& locals,
             std::vector<GatherAnnotation>& gathers) {
    while (true) {
      skip();
      if (i_ >= t_.size()) return true;
      const bool local = word("local");
      const bool gather = !local && word("gather");
      const bool map = !local && !gather && word("map");
      if (!local && !gather && !map && !word("AoS") && !word("aos"))
        return error(
            "expected 'AoS:' (the layout the host keeps), 'local:', 'gather:' or 'map:', found " +
            found());
      skip();
      if (!eat(':'))
        return error(std::string("expected ':' after '") +
                     (local    ? "local"
                      : gather ? "gather"
                      : map    ? "map"
                               : "AoS") +
                     "', found " + found());
      while (true) {
        if (local) {
          LocalAnnotation l;
          if (!staged(l)) return false;
          locals.push_back(std::move(l));
        } else if (gather || map) {
          GatherAnnotation g;
          g.map = map;
          if (!(map ? mapped(g) : gathered(g))) return false;
          gathers.push_back(std::move(g));
        } else {
          BufferAnnotation b;
          if (!buffer(b)) return false;
          out.push_back(std::move(b));
        }
        skip();
        if (eat(',')) continue;
        break;
      }
      skip();
      if (i_ >= t_.size()) return true;
      if (!eat(';')) return error("expected ',' or ';' between buffers, found " + found());
    }
  }

 private:
  bool buffer(BufferAnnotation& b) {
    skip();
    if (word("const")) b.read_only = true, skip();
    if (word("write_only")) {
      if (b.read_only) return error("a buffer is either const or write_only, not both");
      b.write_only = true;
      skip();
      if (word("const")) return error("a buffer is either const or write_only, not both");
    }
    b.column = col();
    b.line = line_;
    std::string name = ident();
    if (name.empty()) return error("expected a buffer (parameter) name, found " + found());
    b.name = name;
    skip();
    if (eat(':')) {
      skip();
      b.record = ident();
      if (b.record.empty()) return error("expected a record name after ':', found " + found());
      skip();
    }
    if (i_ >= t_.size() || t_[i_] != '[')
      return error("expected '[' with the dimension of '" + name + "', found " + found());
    std::uint64_t constant_product = 1;  // of the constant dimensions: must fit in 64 bits
    while (i_ < t_.size() && t_[i_] == '[') {
      const std::size_t start = i_ + 1;
      std::optional<Expr> e = bracketed();
      if (!e) return false;
      if (e->is_constant()) {
        const std::int64_t v = e->eval({}).value_or(0);  // folded, so it evaluates
        const std::size_t close = i_;
        i_ = start;
        if (v < 0)
          return error("dimension '" + e->text() + "' of '" + name + "' is negative (" +
                       std::to_string(v) + ")");
        if (__builtin_mul_overflow(constant_product, static_cast<std::uint64_t>(v),
                                   &constant_product))
          return error("the dimensions of '" + name + "' multiply past 64 bits at '" + e->text() +
                       "': no buffer holds that many records");
        i_ = close;
      }
      if (e->is_whole() && !b.dims.empty()) {
        i_ = start;
        return error("'*' (the whole buffer) of '" + name +
                     "' must be the first dimension: " + name + "[*] or " + name + "[*][S]");
      }
      if (!b.dims.empty() && b.dims[0].is_whole() && b.dims.size() > 1) {
        i_ = start;
        return error("after '*' (the whole buffer), '" + name +
                     "' takes only the record length S of a flat array: " + name + "[*][S]");
      }
      b.dims.push_back(std::move(*e));
      ++i_;
      skip();
    }
    if (t_.compare(i_, 2, "->") == 0) {
      i_ += 2;
      skip();
      if (i_ < t_.size() && t_[i_] == '[') {
        if (!swapped(b)) return false;
      } else if (!target(b.target, b.tile)) {
        return false;
      } else if (b.target.kind == LayoutKind::Swap) {
        return error(
            "SWAP is not written as a target: write the dimensions in their new "
            "order (" +
            b.name + ":float[nz][ny][nx] -> [nx][ny][nz])");
      } else if (b.target.diagonal() && !diagonal_rows(b)) {
        return false;
      }
      b.target_given = true;
      skip();
    }
    std::size_t save = i_;
    std::string m = ident();
    if (!m.empty()) {
      // The marshaler names the record; it gives the target only where `->` does not. A
      // target of AoS takes either (the record's marshalers serve the buffer's other users).
      const bool asta = m.rfind("AOS2ASTA_", 0) == 0, da = m.rfind("AOS2DA_", 0) == 0;
      const bool diag = m.rfind("AOS2DIAG_", 0) == 0, swap = m.rfind("AOS2SWAP_", 0) == 0;
      const bool to_swap = b.target_given && b.target.kind == LayoutKind::Swap;
      if (swap != to_swap) {
        i_ = save;
        return error("marshaler '" + m + "' " +
                     (swap ? "converts to SWAP but the target of '" + b.name +
                                 "' is not a swap of two dimensions that are not neighbours"
                           : "is not a SWAP marshaler (AOS2SWAP_...) but the target of '" + b.name +
                                 "' swaps two dimensions that are not neighbours"));
      }
      if (!swap && diag != (b.target_given && b.target.diagonal())) {
        i_ = save;
        return error("marshaler '" + m + "' " +
                     (diag ? "converts to DIAG but the target of '" + b.name + "' is not DIAG"
                           : "is not a DIAG marshaler (AOS2DIAG_...) but the target of '" + b.name +
                                 "' is " + b.target.str()));
      }
      if (diag || swap) {
        if (b.record.empty()) b.record = m.substr(9);
      } else if (asta || da) {
        const LayoutKind k = asta ? LayoutKind::ASTA : LayoutKind::DA;
        if (!b.target_given)
          b.target = asta ? Layout::asta(0) : Layout::da();
        else if (b.target.kind != k && b.target.kind != LayoutKind::AoS) {
          i_ = save;
          return error(
              "marshaler '" + m + "' converts to " + (asta ? "ASTA" : "DA") +
              " but the target of '" + b.name + "' is " +
              (b.target.kind == LayoutKind::ASTA && !b.target.tile ? "ASTA" : b.target.str()));
        }
        if (b.record.empty()) b.record = m.substr(asta ? 9 : 7);
      } else {
        i_ = save;
        return error("unknown word '" + m + "' (expected a marshaler such as AOS2ASTA_" +
                     (b.record.empty() ? std::string("foo") : b.record) + ")");
      }
      b.marshaler = m;
    }
    return true;
  }
  /// `[expr]` at the cursor: the expression, the cursor on its `]`; nullopt after an error.
  std::optional<Expr> bracketed() {
    const std::size_t start = ++i_;
    int depth = 1;
    while (i_ < t_.size() && depth) {
      if (t_[i_] == '[')
        ++depth;
      else if (t_[i_] == ']')
        --depth;
      if (depth) ++i_;
    }
    if (depth) {
      i_ = start;
      return error("missing ']'"), std::nullopt;
    }
    std::string err;
    std::size_t pos = 0;
    auto e = Expr::parse(t_.substr(start, i_ - start), &err, &pos);
    if (!e) {
      i_ = start + pos;
      return error("bad dimension expression: " + err), std::nullopt;
    }
    return e;
  }
  /// The array of a `gather:` or `map:` clause and its element type: `x` or `x:float`.
  bool gathered_array(GatherAnnotation& g) {
    skip();
    g.column = col();
    g.line = line_;
    g.name = ident();
    if (g.name.empty()) return error("expected an array (parameter) name, found " + found());
    skip();
    if (eat(':')) {
      skip();
      const std::size_t at = i_;
      g.type = ident();
      if (g.type.empty() || !g.elem_size()) {
        i_ = at;
        return error("expected the element type of '" + g.name +
                     "' (a scalar or vector type such as float or int4), found " + found());
      }
      skip();
    }
    return true;
  }
  /// An array of a `gather:` clause: `x[col]`, completed `x:float[col:int]`.
  bool gathered(GatherAnnotation& g) {
    if (!gathered_array(g)) return false;
    if (!eat('['))
      return error("expected '[' with the index array of '" + g.name + "' (" + g.name +
                   "[col]: its reads " + g.name + "[col[i]]), found " + found());
    skip();
    g.index = ident();
    if (g.index.empty()) return error("expected an index array (parameter) name, found " + found());
    skip();
    if (eat(':')) {
      skip();
      const std::size_t at = i_;
      g.index_type = ident();
      if (g.index_type.empty() || !g.index_kind().first) {
        i_ = at;
        return error("expected the integer element type of '" + g.index + "', found " + found());
      }
      skip();
    }
    if (!eat(']'))
      return error("expected ']' after the index array '" + g.index + "', found " + found());
    if (g.index == g.name) return error("'" + g.name + "' cannot be its own index array");
    if (g.type.empty() != g.index_type.empty())
      return error("'" + g.name + "[" + g.index +
                   "]' names one element type: give both (as dl-annotate completes them) or none");
    return true;
  }
  /// An array of a `map:` clause: `x[fn]`, completed `x:float[fn(n, s)]` (the kernel
  /// parameters fn's other arguments read).
  bool mapped(GatherAnnotation& g) {
    if (!gathered_array(g)) return false;
    if (!eat('['))
      return error("expected '[' with the function that maps '" + g.name + "' (" + g.name +
                   "[fn]: its reads " + g.name + "[fn(i, ...)]), found " + found());
    skip();
    g.index = ident();
    if (g.index.empty()) return error("expected a function name, found " + found());
    skip();
    if (eat('(')) {
      if (g.type.empty())
        return error("'" + g.name + "[" + g.index +
                     "(...)]' lists the parameters its map reads without the element type of '" +
                     g.name + "': give both (as dl-annotate completes them) or none");
      skip();
      while (!eat(')')) {
        if (!g.args.empty()) {
          if (!eat(','))
            return error("expected ',' or ')' in the parameters of '" + g.index + "', found " +
                         found());
          skip();
        }
        std::string a = ident();
        if (a.empty()) return error("expected a parameter name, found " + found());
        g.args.push_back(std::move(a));
        skip();
      }
      skip();
    } else if (!g.type.empty()) {
      return error("expected '(' with the parameters the map '" + g.index + "' of '" + g.name +
                   "' reads (as dl-annotate completes them), found " + found());
    }
    if (!eat(']'))
      return error("expected ']' after the function '" + g.index + "', found " + found());
    if (g.index == g.name) return error("'" + g.name + "' cannot be its own map");
    return true;
  }
  /// A buffer of a `local:` clause: `name[elements]`.
  bool staged(LocalAnnotation& l) {
    skip();
    l.column = col();
    l.line = line_;
    l.name = ident();
    if (l.name.empty()) return error("expected a buffer (parameter) name, found " + found());
    skip();
    if (i_ >= t_.size() || t_[i_] != '[')
      return error("expected '[' with the number of elements of '" + l.name + "', found " +
                   found());
    const std::size_t start = i_ + 1;
    std::optional<Expr> e = bracketed();
    if (!e) return false;
    if (e->is_whole()) {
      i_ = start;
      return error("'" + l.name +
                   "' of a local: clause needs its number of elements as an expression of the "
                   "kernel's arguments ('*', the whole buffer, is not known inside the kernel)");
    }
    if (!e->fields().empty()) {
      i_ = start;
      return error("the number of elements of '" + l.name +
                   "' takes kernel arguments and constants only (no sizeof or arg.field)");
    }
    l.extent = std::move(*e);
    ++i_;
    return true;
  }
  /// A target of dimensions, `-> [ny][nz][nx]`: the array's own dimensions with two of
  /// them exchanged (compared as written, blanks aside). Sets b.swap, b.swap_with and the
  /// tile width the layout stands for: the first of the two (docs/remappings.md); ASTA
  /// for neighbours, SWAP otherwise.
  bool swapped(BufferAnnotation& b) {
    const std::size_t s = i_;
    std::vector<Expr> to;
    while (i_ < t_.size() && t_[i_] == '[') {
      std::optional<Expr> e = bracketed();
      if (!e) return false;
      to.push_back(std::move(*e));
      ++i_;
      skip();
    }
    auto bare = [](const Expr& e) {
      std::string t;
      for (char c : e.text())
        if (!std::isspace(static_cast<unsigned char>(c))) t += c;
      return t;
    };
    auto list = [](const std::vector<Expr>& d) {
      std::string t;
      for (const auto& e : d) t += "[" + e.text() + "]";
      return t;
    };
    const std::string from = b.name + list(b.dims), want = list(to);
    auto fail = [&](const std::string& why) {
      i_ = s;
      return error(from + " -> " + want + ": " + why);
    };
    if (!b.dims.empty() && b.dims[0].is_whole())
      return fail("a swap of dimensions needs every dimension as an expression, not '*'");
    if (to.size() != b.dims.size())
      return fail("the target has " + std::to_string(to.size()) + " dimensions, the array " +
                  std::to_string(b.dims.size()));
    std::vector<std::size_t> moved;
    for (std::size_t d = 0; d < to.size(); ++d)
      if (bare(to[d]) != bare(b.dims[d])) moved.push_back(d);
    if (moved.empty()) return fail("the same order (write '-> AoS' to keep the layout)");
    const std::size_t p = moved[0];
    if (moved.size() != 2 || bare(to[p]) != bare(b.dims[moved[1]]) ||
        bare(to[moved[1]]) != bare(b.dims[p]))
      return fail(
          "not two dimensions exchanged (DL swaps two dimensions; other permutations are not "
          "offered)");
    const std::size_t q = moved[1];
    b.swap = static_cast<int>(p);
    b.swap_with = static_cast<int>(q);
    for (std::size_t d = p + 1; d < q; ++d)
      if (!b.dims[d].fields().empty())
        return fail("the dimension '" + b.dims[d].text() +
                    "' between the swapped two takes kernel arguments and constants only (no "
                    "sizeof or arg.field)");
    const Expr& t = b.dims[p];
    if (!t.fields().empty())
      return fail("the swapped dimension '" + t.text() +
                  "' takes kernel arguments and constants only (no sizeof or arg.field)");
    if (t.is_constant()) {
      const std::int64_t v = t.eval({}).value_or(0);
      if (v < 1 || v > static_cast<std::int64_t>(kMaxTile))
        return fail("the swapped dimension '" + t.text() + "' is " + std::to_string(v) +
                    ", outside [1, " + std::to_string(kMaxTile) + "]");
      b.target = b.distant() ? Layout::swap(static_cast<std::uint32_t>(v), 0)
                             : Layout::asta(static_cast<std::uint32_t>(v));
    } else {
      b.target = b.distant() ? Layout::swap(0, 0) : Layout::asta(0);
      b.tile = t;
    }
    return true;
  }
  /// The target after `->`: ASTA, ASTA(T), ASTA(E), DA or AoS.
  bool target(Layout& out, std::optional<Expr>& tile_expr) {
    const std::size_t s = i_;
    while (i_ < t_.size() && is_ident(t_[i_])) ++i_;
    const std::string kind(t_.substr(s, i_ - s));
    if (kind.empty()) return error("expected a target layout after '->', found " + found());
    if (i_ < t_.size() && t_[i_] == '(') {
      // The matching ')': an expression may hold parentheses of its own.
      std::size_t close = i_ + 1;
      for (int depth = 1; close < t_.size(); ++close)
        if (t_[close] == '(')
          ++depth;
        else if (t_[close] == ')' && --depth == 0)
          break;
      if (close >= t_.size()) return error("missing ')' after '" + kind + "('");
      const std::string tile(t_.substr(i_ + 1, close - i_ - 1));
      const std::size_t open = i_;
      i_ = close + 1;
      if (kind == "ASTA" || kind == "asta") {
        auto bad = [&](const std::string& why) {
          i_ = s;
          return error("bad tile width '" + tile + "' in '" +
                       std::string(t_.substr(s, close + 1 - s)) + "': " + why);
        };
        const std::string range = "T is a whole number from 1 to " + std::to_string(kMaxTile) +
                                  " or an expression of the kernel's integer arguments";
        std::string err;
        std::size_t pos = 0;
        auto e = Expr::parse(tile, &err, &pos);
        if (!e) {
          i_ = open + 1 + pos;
          return error("bad tile width expression '" + tile + "': " + err);
        }
        if (e->is_whole() || !e->fields().empty())
          return bad(
              "the tile width takes kernel arguments and constants only (no '*', "
              "sizeof or arg.field); " +
              range);
        if (!e->is_constant()) {
          out = Layout::asta(0);
          tile_expr = std::move(*e);
          return true;
        }
        const std::int64_t v = e->eval({}).value_or(0);  // folded, so it evaluates
        if (v < 1 || v > static_cast<std::int64_t>(kMaxTile)) return bad(range);
        out = Layout::asta(static_cast<std::uint32_t>(v));
        return true;
      }
    }
    const std::string lay(t_.substr(s, i_ - s));
    if (lay == "ASTA" || lay == "asta") return out = Layout::asta(0), true;
    try {
      out = Layout::parse(lay);
      return true;
    } catch (const LayoutError&) {
      i_ = s;
      return error("unknown target layout '" + lay +
                   "' (expected ASTA, ASTA(T), DA, AoS, DIAG or DIAG_MAIN)");
    }
  }
  /// `-> DIAG` / `-> DIAG_MAIN` after the dimensions of `b`: the rows of a plane are the
  /// dimension before the fastest (a constant in the target, else an expression of the
  /// kernel's arguments in `b.tile`).
  bool diagonal_rows(BufferAnnotation& b) {
    const std::string form = b.name + ":float[nz][ny][nx] -> " +
                             (b.target.kind == LayoutKind::Diag ? "DIAG" : "DIAG_MAIN");
    if (b.target.tile)
      return error(
          "a diagonal target takes its rows per plane from the dimensions, not in "
          "parentheses: " +
          form);
    if (b.dims.size() < 2 || b.dims[0].is_whole())
      return error(
          "a diagonal target diagonalizes the two fastest dimensions of a flat array "
          "of scalars, all dimensions given: " +
          form);
    const Expr& rows = b.dims[b.dims.size() - 2];
    if (!rows.fields().empty())
      return error("the rows per plane of '" + b.name + "' ('" + rows.text() +
                   "') take kernel arguments and constants only (no sizeof or arg.field)");
    if (!rows.is_constant()) {
      b.tile = rows;
      return true;
    }
    const std::int64_t v = rows.eval({}).value_or(0);
    if (v < 1 || v > static_cast<std::int64_t>(kMaxTile))
      return error("the rows per plane of '" + b.name + "' are " + std::to_string(v) +
                   ", outside [1, " + std::to_string(kMaxTile) + "]");
    b.target.tile = static_cast<std::uint32_t>(v);
    return true;
  }
  /// The character at the cursor, for "expected X, found Y" messages.
  std::string found() const { return detail::describe_char(t_, i_, "the end of the line"); }
  void skip() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  bool eat(char c) {
    if (i_ < t_.size() && t_[i_] == c) return ++i_, true;
    return false;
  }
  bool word(std::string_view w) {
    if (t_.compare(i_, w.size(), w) == 0 &&
        (i_ + w.size() >= t_.size() || !is_ident(t_[i_ + w.size()])))
      return i_ += w.size(), true;
    return false;
  }
  std::string ident() {
    std::size_t s = i_;
    if (i_ < t_.size() && (std::isalpha(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_'))
      while (i_ < t_.size() && is_ident(t_[i_])) ++i_;
    return std::string(t_.substr(s, i_ - s));
  }
  int col() const { return col0_ + static_cast<int>(i_); }
  bool error(std::string m) {
    diags_.push_back({line_, col(), true, std::move(m)});
    return false;
  }

  std::string_view t_;
  std::size_t i_ = 0;
  int line_, col0_;
  std::vector<AnnotationDiagnostic>& diags_;
};

}  // namespace

int KernelAnnotation::param_index(const std::string& name) const {
  if (!params_exact) return -1;
  for (std::size_t i = 0; i < params.size(); ++i)
    if (params[i] == name) return static_cast<int>(i);
  return -1;
}

bool SourceAnnotations::has_errors() const {
  for (const auto& d : diagnostics)
    if (d.error) return true;
  return false;
}

const KernelAnnotation* SourceAnnotations::find(const std::string& kernel) const {
  for (const auto& k : kernels)
    if (k.kernel == kernel) return &k;
  return nullptr;
}

SourceAnnotations scan_annotations(std::string_view src,
                                   const std::function<bool(const std::string&)>& is_macro) {
  SourceAnnotations out;
  std::string blanked = blank_comments(src);
  const auto directives = blank_directives(blanked);
  const std::vector<KernelSig> sigs = find_kernels(blanked, directives);
  const std::vector<bool> commented = lines_in_comments(src);

  // Collect //DL: lines.
  struct Pending {
    int line;
    std::size_t offset;
    std::vector<BufferAnnotation> buffers;
    bool bad;
    std::vector<LocalAnnotation> locals;
    std::vector<GatherAnnotation> gathers;
  };
  std::vector<Pending> pending;
  int number = 1;
  for (std::size_t pos = 0; pos <= src.size();) {
    std::size_t end = src.find('\n', pos);
    if (end == std::string_view::npos) end = src.size();
    std::string_view line = src.substr(pos, end - pos);
    std::size_t lead = line.find_first_not_of(" \t");
    if (lead != std::string_view::npos && line.compare(lead, 5, "//DL:") == 0 &&
        !commented[static_cast<std::size_t>(number)]) {
      std::string_view body = line.substr(lead + 5);
      int col0 = static_cast<int>(lead + 5) + 1;
      std::size_t w = body.find_first_not_of(" \t");
      const bool record = w != std::string_view::npos && body.compare(w, 6, "record") == 0 &&
                          (w + 6 == body.size() || body[w + 6] == ' ' || body[w + 6] == '\t');
      if (line.size() > kMaxAnnotationLine) {
        out.diagnostics.push_back({number, static_cast<int>(lead) + 1, true,
                                   "//DL: line is " + std::to_string(line.size()) +
                                       " characters long; the limit is " +
                                       std::to_string(kMaxAnnotationLine)});
        if (!record)
          pending.push_back({number, pos, {}, true, {}, {}});  // its kernel runs untransformed
      } else if (record) {
        try {
          Record r = Record::parse(body.substr(w + 6));
          out.records[r.name()] = r;
        } catch (const LayoutError& e) {
          out.diagnostics.push_back({number, col0 + static_cast<int>(w), true, e.what()});
        }
      } else {
        Pending p{number, pos, {}, false, {}, {}};
        ClauseParser cp(body, number, col0, out.diagnostics);
        p.bad = !cp.parse(p.buffers, p.locals, p.gathers);
        pending.push_back(std::move(p));
      }
    }
    number++;
    pos = end + 1;
  }

  // Bind each //DL: line to the first kernel after it.
  std::set<std::string> broken;
  std::size_t next_sig = 0;
  for (const auto& p : pending) {
    while (next_sig < sigs.size() && sigs[next_sig].offset < p.offset) ++next_sig;
    if (next_sig == sigs.size()) {
      out.diagnostics.push_back({p.line, 1, true, "//DL: annotation is not followed by a kernel"});
      continue;
    }
    const KernelSig& sig = sigs[next_sig];
    KernelAnnotation* k = nullptr;
    for (auto& existing : out.kernels)
      if (existing.kernel == sig.name) k = &existing;
    if (!k) {
      k = &out.kernels.emplace_back();
      k->kernel = sig.name;
      k->params = sig.params;
      k->params_exact = sig.params_exact;
      k->line = p.line;
    }
    bool bad = p.bad;
    // The buffers this line names, of either clause, for the checks below.
    struct Named {
      const std::string& name;
      int line, column;
      std::vector<const Expr*> dims;
      bool local;
      const Expr* tile;  // `-> ASTA(E)`
    };
    std::vector<Named> named;
    for (const auto& b : p.buffers) {
      named.push_back({b.name, b.line, b.column, {}, false, b.tile ? &*b.tile : nullptr});
      for (const auto& d : b.dims) named.back().dims.push_back(&d);
    }
    for (const auto& l : p.locals)
      named.push_back({l.name, l.line, l.column, {&l.extent}, true, nullptr});
    // Names are checked against the text only where it is the compiled list; otherwise
    // dl-annotate (on Clang's AST) and the runtime (CL_KERNEL_ARG_NAME) check them.
    for (const Named& b : named) {
      if (!k->params_exact) continue;
      if (k->param_index(b.name) < 0) {
        out.diagnostics.push_back(
            {b.line, b.column, true,
             "'" + b.name + "' is not a parameter of kernel '" + sig.name + "'"});
        bad = true;
      }
      std::vector<std::pair<const Expr*, const char*>> exprs;
      for (const Expr* d : b.dims) exprs.emplace_back(d, "dimension");
      if (b.tile) exprs.emplace_back(b.tile, "tile width");
      for (const auto& [d, what] : exprs)
        for (const auto& n : d->names())
          if (k->param_index(n) < 0 && !(is_macro && is_macro(n))) {
            out.diagnostics.push_back({b.line, b.column, true,
                                       std::string(what) + " of '" + b.name + "' names '" + n +
                                           "', which is not a parameter of kernel '" + sig.name +
                                           "'"});
            bad = true;
          }
    }
    // One clause of each kind per buffer and kernel: a second (another annotation block of
    // the same kernel name, e.g. a definition the preprocessor sets aside) would bind one
    // argument twice. (A buffer may be in an AoS: and a local: clause.)
    for (std::size_t i = 0; i < named.size(); ++i) {
      const Named& b = named[i];
      int first = 0;
      if (!b.local)
        for (const auto& e : k->buffers)
          if (e.name == b.name) first = e.line;
      if (b.local)
        for (const auto& e : k->locals)
          if (e.name == b.name) first = e.line;
      for (std::size_t j = 0; j < i && !first; ++j)
        if (named[j].name == b.name && named[j].local == b.local) first = named[j].line;
      if (first) {
        out.diagnostics.push_back({b.line, b.column, true,
                                   "'" + b.name + "' of kernel '" + sig.name +
                                       "' is already annotated (line " + std::to_string(first) +
                                       ")"});
        bad = true;
      }
    }
    // A gather reads both arrays as the host wrote them: neither may be converted (an AoS:
    // clause) or staged (a local: clause), and an array is gathered through one index.
    for (const auto& g : p.gathers) {
      // A map's index is a function; the parameters its arguments read are the kernel's.
      std::vector<const std::string*> params = {&g.name};
      if (!g.map) params.push_back(&g.index);
      for (const std::string& a : g.args) params.push_back(&a);
      for (const std::string* n : params)
        if (k->params_exact && k->param_index(*n) < 0) {
          out.diagnostics.push_back(
              {g.line, g.column, true,
               "'" + *n + "' is not a parameter of kernel '" + sig.name + "'"});
          bad = true;
        }
      auto clash = [&](const std::string& n, const char* what, int line) {
        out.diagnostics.push_back({g.line, g.column, true,
                                   "'" + n + "' of " + describe_gather(g) + " is also " + what +
                                       " (line " + std::to_string(line) +
                                       "): a gather reads it as the host wrote it"});
        bad = true;
      };
      for (const std::string* n : {&g.name, &g.index}) {
        if (g.map && n == &g.index) continue;
        for (const auto& b : k->buffers)
          if (b.name == *n) clash(*n, "in an AoS: clause", b.line);
        for (const auto& b : p.buffers)
          if (b.name == *n) clash(*n, "in an AoS: clause", b.line);
        for (const auto& l : k->locals)
          if (l.name == *n) clash(*n, "staged in a local: clause", l.line);
        for (const auto& l : p.locals)
          if (l.name == *n) clash(*n, "staged in a local: clause", l.line);
      }
      int first = 0;
      for (const auto& e : k->gathers)
        if (e.name == g.name) first = e.line;
      for (const auto& e : p.gathers)
        if (&e == &g)
          break;
        else if (e.name == g.name)
          first = e.line;
      if (first) {
        out.diagnostics.push_back({g.line, g.column, true,
                                   "'" + g.name + "' of kernel '" + sig.name +
                                       "' is already gathered or mapped (line " +
                                       std::to_string(first) + ")"});
        bad = true;
      }
    }
    // ... and an AoS: or local: clause of a later line may not name an array gathered before.
    for (const Named& b : named)
      for (const auto& g : k->gathers)
        if (b.name == g.name || (!g.map && b.name == g.index)) {
          out.diagnostics.push_back({b.line, b.column, true,
                                     "'" + b.name + "' is read by " + describe_gather(g) +
                                         " (line " + std::to_string(g.line) +
                                         "): a gather reads it as the host wrote it"});
          bad = true;
        }
    if (bad) {
      // A kernel with a broken annotation runs untransformed: drop it entirely.
      broken.insert(sig.name);
      continue;
    }
    k->buffers.insert(k->buffers.end(), p.buffers.begin(), p.buffers.end());
    k->locals.insert(k->locals.end(), p.locals.begin(), p.locals.end());
    k->gathers.insert(k->gathers.end(), p.gathers.begin(), p.gathers.end());
  }
  std::vector<KernelAnnotation> good;
  for (auto& k : out.kernels)
    if (!broken.count(k.kernel)) good.push_back(std::move(k));
  out.kernels = std::move(good);
  return out;
}

std::optional<std::uint64_t> record_count(const std::vector<std::int64_t>& dims, const Record* rec,
                                          std::string* error) {
  auto fail = [&](std::string why) -> std::optional<std::uint64_t> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  std::uint64_t n = 1;
  std::size_t used = dims.size();
  if (rec && dims.size() >= 2 && rec->fields().size() == 1 && rec->fields()[0].vector_width == 1 &&
      rec->fields()[0].block == 1 &&
      dims.back() == static_cast<std::int64_t>(rec->fields()[0].count))
    --used;
  std::string product;
  for (std::size_t i = 0; i < used; ++i) {
    if (dims[i] < 0) return fail("dimension " + std::to_string(dims[i]) + " is negative");
    product += (i ? " * " : "") + std::to_string(dims[i]);
    if (__builtin_mul_overflow(n, static_cast<std::uint64_t>(dims[i]), &n))
      return fail("the record count " + product + " exceeds 64 bits");
  }
  std::uint64_t bytes = 0;
  if (rec && __builtin_mul_overflow(n, static_cast<std::uint64_t>(rec->size()), &bytes))
    return fail("the buffer size " + std::to_string(n) + " records * " +
                std::to_string(rec->size()) + " bytes exceeds 64 bits");
  return n;
}

std::optional<std::pair<Record, std::uint64_t>> swap_rows(const BufferAnnotation& b,
                                                          const std::vector<std::int64_t>& dims,
                                                          std::string* error) {
  const std::size_t p = static_cast<std::size_t>(b.swap);
  if (!b.rows() || dims.size() != b.dims.size()) {
    if (error) *error = "not a swap of rows";
    return std::nullopt;
  }
  const std::size_t q = static_cast<std::size_t>(b.swap_with);
  std::int64_t count = 1, block = 1;
  for (std::size_t d = p + 1; d <= q && count > 0; ++d)
    if (dims[d] < 1)
      count = dims[d];  // flat_record says why
    else if (__builtin_mul_overflow(count, dims[d], &count)) {
      if (error) *error = "the rows between the swapped two overflow";
      return std::nullopt;
    }
  for (std::size_t d = q + 1; d < dims.size(); ++d)
    if (dims[d] < 1 || __builtin_mul_overflow(block, dims[d], &block)) {
      if (error)
        *error = "the row length " + b.dims[d].text() + " = " + std::to_string(dims[d]) +
                 (dims[d] < 1 ? " is not positive" : " overflows");
      return std::nullopt;
    }
  std::string err;
  auto rec = flat_record(b.record, count, block, &err);
  if (!rec) {
    if (error)
      *error = "the rows of the swap of '" + b.dims[p].text() + "' and '" + b.dims[q].text() +
               "': " + err;
    return std::nullopt;
  }
  // The product of the outer dimensions, all of them (no record to recognise in the last).
  const std::vector<std::int64_t> outer(dims.begin(), dims.begin() + static_cast<long>(p) + 1);
  auto n = record_count(outer, nullptr, error);
  std::uint64_t bytes = 0;
  if (n && __builtin_mul_overflow(*n, static_cast<std::uint64_t>(rec->size()), &bytes)) {
    if (error)
      *error = "the buffer size " + std::to_string(*n) + " records * " +
               std::to_string(rec->size()) + " bytes exceeds 64 bits";
    return std::nullopt;
  }
  if (!n) return std::nullopt;
  return std::make_pair(std::move(*rec), *n);
}

std::optional<Layout> distant_swap(const BufferAnnotation& b, const std::vector<std::int64_t>& dims,
                                   std::string* error) {
  if (!b.distant() || dims.size() != b.dims.size()) {
    if (error) *error = "not a swap of two dimensions that are not neighbours";
    return std::nullopt;
  }
  const std::size_t p = static_cast<std::size_t>(b.swap), q = static_cast<std::size_t>(b.swap_with);
  std::int64_t between = 1;
  for (std::size_t d = p + 1; d < q; ++d)
    if (__builtin_mul_overflow(between, dims[d], &between)) between = kMaxTile + std::int64_t{1};
  for (auto [v, what] : {std::pair{dims[p], "the swapped dimension '" + b.dims[p].text() + "'"},
                         std::pair{between, std::string("the dimensions between the two")}})
    if (v < 1 || v > static_cast<std::int64_t>(kMaxTile)) {
      if (error)
        *error =
            what + " = " + std::to_string(v) + ", outside [1, " + std::to_string(kMaxTile) + "]";
      return std::nullopt;
    }
  return Layout::swap(static_cast<std::uint32_t>(dims[p]), static_cast<std::uint32_t>(between));
}

std::vector<int> whole_groups(const KernelAnnotation& ka,
                              const std::map<std::string, Record>& records) {
  std::vector<std::string> keys;
  std::vector<int> out;
  for (const BufferAnnotation& b : ka.buffers) {
    std::string key;
    Scalar sc;
    if (!b.whole()) {
      out.push_back(-1);
      keys.emplace_back();
      continue;
    }
    if (b.target.kind != LayoutKind::AoS) {
      if (auto it = records.find(b.record); it != records.end())
        key = "R" + std::to_string(it->second.size());
      else if (parse_scalar(b.record, sc))
        key = "S" + std::to_string(scalar_size(sc)) + ":" + b.dims.back().text();
    }
    int leader = static_cast<int>(out.size());
    for (std::size_t i = 0; i < keys.size() && !key.empty(); ++i)
      if (keys[i] == key) {
        leader = static_cast<int>(i);
        break;
      }
    out.push_back(leader);
    keys.push_back(key);
  }
  return out;
}

bool is_flat_scalar(const std::string& record) {
  Scalar sc;
  return parse_scalar(record, sc);
}

std::optional<Record> flat_record(const std::string& scalar, std::int64_t s, std::int64_t block,
                                  std::string* error) {
  Scalar sc;
  if (!parse_scalar(scalar, sc)) {
    if (error) *error = "'" + scalar + "' is not a scalar type";
    return std::nullopt;
  }
  // The record must be a record (kMaxRecordSize): a long row kept AoS is one too.
  const std::int64_t most = static_cast<std::int64_t>(kMaxRecordSize / scalar_size(sc));
  if (block < 1 || block > most) {
    if (error)
      *error = "the row length " + std::to_string(block) + " is outside [1, " +
               std::to_string(most) + "] (records of at most 1 MiB)";
    return std::nullopt;
  }
  if (s < 1 || s > most / block) {
    if (error)
      *error = block == 1 || s < 1
                   ? "the record length S = " + std::to_string(s) + " is outside [1, " +
                         std::to_string(most / block) + "] (records of at most 1 MiB)"
                   : "a record of " + std::to_string(s) + " rows of " + std::to_string(block) +
                         " scalars exceeds 1 MiB";
    return std::nullopt;
  }
  if (block == 1)
    return Record::make("flat_" + scalar + "_" + std::to_string(s),
                        {{"v", sc, 1, static_cast<unsigned>(s), 0}});
  return Record::blocks("flat_" + scalar + "_" + std::to_string(s) + "x" + std::to_string(block),
                        sc, static_cast<unsigned>(s), static_cast<unsigned>(block));
}

std::size_t GatherAnnotation::elem_size() const {
  std::string_view t = type;
  unsigned width = 1;
  if (const auto d = t.find_first_of("0123456789"); d != std::string_view::npos) {
    if (t.substr(d) == "2")
      width = 2;
    else if (t.substr(d) == "3" || t.substr(d) == "4")
      width = 4;  // a 3-vector takes 4
    else if (t.substr(d) == "8")
      width = 8;
    else if (t.substr(d) == "16")
      width = 16;
    else
      return 0;
    t = t.substr(0, d);
  }
  Scalar sc;
  if (t.empty() || !parse_scalar(t, sc)) return 0;
  return scalar_size(sc) * width;
}

std::pair<unsigned, bool> GatherAnnotation::index_kind() const {
  Scalar sc;
  if (!parse_scalar(index_type, sc)) return {0, false};
  switch (sc) {
    case Scalar::Char:
    case Scalar::Short:
    case Scalar::Int:
    case Scalar::Long:
      return {static_cast<unsigned>(scalar_size(sc)), true};
    case Scalar::UChar:
    case Scalar::UShort:
    case Scalar::UInt:
    case Scalar::ULong:
      return {static_cast<unsigned>(scalar_size(sc)), false};
    default:
      return {0, false};
  }
}

std::string format_gather(const GatherAnnotation& g) {
  if (g.type.empty()) return g.name + "[" + g.index + "]";
  if (g.map) {
    std::string s = g.name + ":" + g.type + "[" + g.index + "(";
    for (std::size_t i = 0; i < g.args.size(); ++i) s += (i ? ", " : "") + g.args[i];
    return s + ")]";
  }
  return g.name + ":" + g.type + "[" + g.index + ":" + g.index_type + "]";
}

std::string map_copy_param(const std::string& x) {
  return "dl_map_" + x;
}
std::string map_count_param(const std::string& x) {
  return "dl_mapn_" + x;
}
std::string map_kernel_name(const std::string& kernel, const std::string& x) {
  return "dl_map" + std::to_string(kernel.size()) + "_" + kernel + "_" + x;
}

std::string describe_gather(const GatherAnnotation& g) {
  return (g.map ? "the map " : "the gather ") + g.name + "[" + g.index + "]";
}

std::string format_local(const LocalAnnotation& l) {
  return l.name + "[" + l.extent.text() + "]";
}

std::string format_clause(const BufferAnnotation& b) {
  std::string s = b.read_only ? "const " : b.write_only ? "write_only " : "";
  s += b.name;
  // A flat array whose S is known at launch only names its scalar type (`val:float`).
  if (is_flat_scalar(b.record)) s += ":" + b.record;
  for (const auto& d : b.dims) s += "[" + d.text() + "]";
  if (b.swap >= 0) {
    s += " -> ";
    for (std::size_t d = 0; d < b.dims.size(); ++d) {
      const std::size_t p = static_cast<std::size_t>(b.swap),
                        q = static_cast<std::size_t>(b.swap_with);
      s += "[" + b.dims[d == p ? q : d == q ? p : d].text() + "]";
    }
  } else if (b.target.diagonal())
    s += b.target.kind == LayoutKind::Diag ? " -> DIAG" : " -> DIAG_MAIN";
  else if (b.target.kind == LayoutKind::DA)
    s += " -> DA";
  else if (b.target.kind == LayoutKind::AoS)
    s += " -> AoS";
  else if (b.tile)
    s += " -> ASTA(" + b.tile->text() + ")";
  else if (b.target.tile)
    s += " -> " + b.target.str();
  else
    s += " -> ASTA";
  if (!b.marshaler.empty()) s += " " + b.marshaler;
  return s;
}

}  // namespace dl
