// Dimension expressions of //DL: annotations: a small recursive-descent parser and
// an evaluator over 64-bit integers. Recursion is bounded (kMaxExprLength,
// kMaxExprDepth) and all arithmetic is checked, so no input overflows the stack or
// wraps a value.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>

#include "dl/annotation.hpp"
#include "text.hpp"

namespace dl {

struct Expr::Node {
  enum Kind { Num, Name, Builtin, Neg, Add, Sub, Mul, Div, Mod, Whole, Sizeof, Field } kind = Num;
  std::int64_t value = 0;  // Num; dimension for Builtin; byte offset for Field (-1: none)
  std::string name;        // Name; builtin name for Builtin; type for Sizeof; the
                           // by-value argument for Field
  std::string path;        // Field: the member path after the argument ("dim.boxes")
  std::string type;        // Field: the integer type at `value` (char ... ulong)
  std::shared_ptr<const Node> a, b;
  std::size_t begin = 0, end = 0;  // the node's text in the expression
  int depth = 1;                   // levels of the tree below and including this node
  bool constant = false;           // reads no name and no work size: `folded` is its value
  std::int64_t folded = 0;
};

namespace {

using NodeP = std::shared_ptr<const Expr::Node>;
using MNode = std::shared_ptr<Expr::Node>;  // while parsing

const char* op_text(Expr::Node::Kind k) {
  switch (k) {
    case Expr::Node::Add:
      return "+";
    case Expr::Node::Sub:
      return "-";
    case Expr::Node::Mul:
      return "*";
    case Expr::Node::Div:
      return "/";
    case Expr::Node::Mod:
      return "%";
    default:
      return "?";
  }
}

/// One checked operation: false (and why, in `err`) on overflow or division by zero.
bool apply(Expr::Node::Kind k, std::int64_t a, std::int64_t b, std::int64_t& out,
           std::string& err) {
  bool overflow = false;
  switch (k) {
    case Expr::Node::Neg:
      overflow = __builtin_sub_overflow(std::int64_t{0}, a, &out);
      if (overflow) err = "overflow (-(" + std::to_string(a) + ") exceeds 64 bits)";
      return !overflow;
    case Expr::Node::Add:
      overflow = __builtin_add_overflow(a, b, &out);
      break;
    case Expr::Node::Sub:
      overflow = __builtin_sub_overflow(a, b, &out);
      break;
    case Expr::Node::Mul:
      overflow = __builtin_mul_overflow(a, b, &out);
      break;
    case Expr::Node::Div:
    case Expr::Node::Mod:
      if (b == 0) {
        err = "division by zero";
        return false;
      }
      // The one quotient that does not fit: INT64_MIN / -1 (and its remainder).
      overflow = a == std::numeric_limits<std::int64_t>::min() && b == -1;
      if (!overflow) out = k == Expr::Node::Div ? a / b : a % b;
      break;
    default:
      err = "not an operator";
      return false;
  }
  if (overflow)
    err = "overflow (" + std::to_string(a) + " " + op_text(k) + " " + std::to_string(b) +
          " exceeds 64 bits)";
  return !overflow;
}

class Parser {
 public:
  explicit Parser(std::string_view t) : t_(t) {}

  MNode parse_all() {
    if (t_.size() > kMaxExprLength) {
      i_ = kMaxExprLength;
      fail("expression is " + std::to_string(t_.size()) + " characters long; the limit is " +
           std::to_string(kMaxExprLength));
      return nullptr;
    }
    MNode n = sum();
    skip();
    if (ok() && i_ != t_.size()) fail("unexpected " + detail::describe_char(t_, i_));
    return ok() ? n : nullptr;
  }
  bool ok() const { return err_.empty(); }
  const std::string& error() const { return err_; }
  std::size_t pos() const { return err_pos_; }

 private:
  /// One more level of parser recursion (a parenthesis or a sign) while it lives.
  class Level {
   public:
    explicit Level(Parser& p) : p_(p) {
      if (++p_.nesting_ > kMaxExprDepth) p_.too_deep(p_.i_);
    }
    ~Level() { --p_.nesting_; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;

   private:
    Parser& p_;
  };

  void skip() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  void fail(std::string m) { fail_at(i_, std::move(m)); }
  void fail_at(std::size_t at, std::string m) {
    if (err_.empty()) err_ = std::move(m), err_pos_ = at;
  }
  void too_deep(std::size_t at) {
    fail_at(at, "expression is nested more than " + std::to_string(kMaxExprDepth) +
                    " levels deep (parentheses, signs and operators each add one)");
  }
  bool eat(char c) {
    skip();
    if (i_ < t_.size() && t_[i_] == c) return ++i_, true;
    return false;
  }
  std::string span(const Expr::Node& n) const {
    return std::string(t_.substr(n.begin, n.end - n.begin));
  }
  /// An operator node over `a` (and `b`), constant-folded with checked arithmetic.
  MNode make(Expr::Node::Kind k, std::size_t begin, MNode a, MNode b) {
    if (!ok() || !a || (k != Expr::Node::Neg && !b)) {
      fail("expression ends too early");
      return nullptr;
    }
    auto n = std::make_shared<Expr::Node>();
    n->kind = k;
    n->begin = begin;
    n->end = (b ? b : a)->end;
    n->depth = 1 + std::max(a->depth, b ? b->depth : 0);
    if (n->depth > kMaxExprDepth) {
      too_deep(begin);
      return nullptr;
    }
    std::string err;
    if ((k == Expr::Node::Div || k == Expr::Node::Mod) && b->constant && b->folded == 0) {
      fail_at(n->begin, "division by zero in '" + span(*n) + "'");
      return nullptr;
    }
    n->constant = a->constant && (!b || b->constant);
    if (n->constant && !apply(k, a->folded, b ? b->folded : 0, n->folded, err)) {
      fail_at(n->begin, err + " in '" + span(*n) + "'");
      return nullptr;
    }
    n->a = std::move(a);
    n->b = std::move(b);
    return n;
  }
  MNode sum() {
    Level level(*this);
    if (!ok()) return nullptr;
    skip();
    const std::size_t begin = i_;
    MNode l = product();
    while (ok()) {
      if (eat('+'))
        l = make(Expr::Node::Add, begin, l, product());
      else if (eat('-'))
        l = make(Expr::Node::Sub, begin, l, product());
      else
        break;
    }
    return l;
  }
  MNode product() {
    skip();
    const std::size_t begin = i_;
    MNode l = unary();
    while (ok()) {
      if (eat('*'))
        l = make(Expr::Node::Mul, begin, l, unary());
      else if (eat('/'))
        l = make(Expr::Node::Div, begin, l, unary());
      else if (eat('%'))
        l = make(Expr::Node::Mod, begin, l, unary());
      else
        break;
    }
    return l;
  }
  MNode unary() {
    skip();
    const std::size_t begin = i_;
    if (eat('-')) {
      Level level(*this);
      if (!ok()) return nullptr;
      return make(Expr::Node::Neg, begin, unary(), nullptr);
    }
    if (eat('+')) {
      Level level(*this);
      if (!ok()) return nullptr;
      return unary();
    }
    return primary();
  }
  MNode primary() {
    skip();
    if (!ok()) return nullptr;
    if (i_ >= t_.size()) {
      fail("expression ends too early");
      return nullptr;
    }
    const std::size_t begin = i_;
    if (eat('(')) {
      MNode n = sum();
      if (!ok()) return nullptr;
      if (!eat(')')) {
        fail("expected ')', found " + detail::describe_char(t_, i_));
        return nullptr;
      }
      n->begin = begin;  // the parentheses belong to the operand's text
      n->end = i_;
      return n;
    }
    char c = t_[i_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::uint64_t v = 0;
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) {
        std::uint64_t d = static_cast<std::uint64_t>(t_[i_] - '0');
        if (v > (static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) - d) / 10) {
          i_ = begin;
          fail("integer literal too large (the largest is 9223372036854775807)");
          return nullptr;
        }
        v = v * 10 + d;
        ++i_;
      }
      while (i_ < t_.size() && std::strchr("uUlL", t_[i_]) && t_[i_] != '\0') ++i_;  // 10u, 4UL
      auto n = std::make_shared<Expr::Node>();
      n->kind = Expr::Node::Num;
      n->value = static_cast<std::int64_t>(v);
      n->begin = begin;
      n->end = i_;
      n->constant = true;
      n->folded = n->value;
      return n;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_'))
        ++i_;
      std::string id(t_.substr(begin, i_ - begin));
      if (id == "global_size" || id == "local_size" || id == "num_groups" ||
          id == "get_global_size" || id == "get_local_size" || id == "get_num_groups") {
        if (id.rfind("get_", 0) == 0) id = id.substr(4);
        if (!eat('(')) {
          fail("expected '(' after " + id + ", found " + detail::describe_char(t_, i_));
          return nullptr;
        }
        skip();
        if (i_ >= t_.size() || t_[i_] < '0' || t_[i_] > '2') {
          fail(id + "() takes a dimension 0, 1 or 2, found " + detail::describe_char(t_, i_));
          return nullptr;
        }
        const std::int64_t d = t_[i_++] - '0';
        if (!eat(')')) {
          fail("expected ')', found " + detail::describe_char(t_, i_));
          return nullptr;
        }
        auto n = std::make_shared<Expr::Node>();
        n->kind = Expr::Node::Builtin;
        n->name = id;
        n->value = d;
        n->begin = begin;
        n->end = i_;
        return n;
      }
      if (id == "sizeof") return size_of(begin);
      if (i_ < t_.size() && t_[i_] == '.') return field(begin, std::move(id));
      auto n = std::make_shared<Expr::Node>();
      n->kind = Expr::Node::Name;
      n->name = std::move(id);
      n->begin = begin;
      n->end = i_;
      return n;
    }
    fail("unexpected " + detail::describe_char(t_, i_));
    return nullptr;
  }

  std::string word() {
    skip();
    const std::size_t b = i_;
    if (i_ < t_.size() && (std::isalpha(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_'))
      while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_'))
        ++i_;
    return std::string(t_.substr(b, i_ - b));
  }
  /// `sizeof(type)`: words only (`struct box`, `unsigned int`, `float4`); dl-annotate
  /// replaces it by the size Clang computes.
  MNode size_of(std::size_t begin) {
    if (!eat('(')) {
      fail("expected '(' after sizeof, found " + detail::describe_char(t_, i_));
      return nullptr;
    }
    std::string type;
    for (std::string w = word(); !w.empty(); w = word()) type += (type.empty() ? "" : " ") + w;
    if (type.empty()) {
      fail("sizeof takes a type name, found " + detail::describe_char(t_, i_));
      return nullptr;
    }
    if (!eat(')')) {
      fail("expected ')' after the type of sizeof, found " + detail::describe_char(t_, i_));
      return nullptr;
    }
    auto n = std::make_shared<Expr::Node>();
    n->kind = Expr::Node::Sizeof;
    n->name = std::move(type);
    n->begin = begin;
    n->end = i_;
    return n;
  }
  /// `arg.member[.member...]`, a field of a by-value struct argument; dl-annotate
  /// completes it with the field's byte offset and integer type (`d.boxes@16:int`).
  MNode field(std::size_t begin, std::string arg) {
    auto n = std::make_shared<Expr::Node>();
    n->kind = Expr::Node::Field;
    n->name = std::move(arg);
    n->value = -1;
    while (eat('.')) {
      const std::string m = word();
      if (m.empty()) {
        fail("expected a member name after '.', found " + detail::describe_char(t_, i_));
        return nullptr;
      }
      n->path += (n->path.empty() ? "" : ".") + m;
    }
    if (eat('@')) {
      skip();
      std::int64_t off = 0;
      const std::size_t at = i_;
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_])) && off < (1 << 24))
        off = off * 10 + (t_[i_++] - '0');
      if (i_ == at || off >= (1 << 24)) {
        fail("expected the byte offset of field '" + n->name + "." + n->path + "' after '@'");
        return nullptr;
      }
      static const char* types[] = {"char", "uchar", "short", "ushort",
                                    "int",  "uint",  "long",  "ulong"};
      n->type = eat(':') ? word() : std::string();
      if (std::find(std::begin(types), std::end(types), n->type) == std::end(types)) {
        fail("expected ':' and an integer type (char, uchar, ..., ulong) after the offset of '" +
             n->name + "." + n->path + "'");
        return nullptr;
      }
      n->value = off;
    }
    n->begin = begin;
    n->end = i_;
    return n;
  }

  std::string_view t_;
  std::size_t i_ = 0;
  int nesting_ = 0;
  std::string err_;
  std::size_t err_pos_ = 0;
};

/// A field of a by-value argument, read from the argument's bytes at its offset.
bool eval_field(const Expr::Node& n, const Expr::Env& env, std::int64_t& out, std::string& err) {
  const std::string what = "field '" + n.name + "." + n.path + "'";
  if (n.value < 0) {
    err = what + " has no offset: dl-annotate completes it (" + n.name + "." + n.path +
          "@offset:type)";
    return false;
  }
  const std::vector<unsigned char>* bytes = env.bytes ? env.bytes(n.name) : nullptr;
  if (!bytes) {
    err = "by-value argument '" + n.name + "' is unknown or not set";
    return false;
  }
  const bool is_signed = n.type[0] != 'u';
  const std::size_t size = n.type.find("char") != std::string::npos    ? 1
                           : n.type.find("short") != std::string::npos ? 2
                           : n.type.find("int") != std::string::npos   ? 4
                                                                       : 8;
  const auto off = static_cast<std::size_t>(n.value);
  if (off + size > bytes->size()) {
    err = what + " (bytes " + std::to_string(off) + ".." + std::to_string(off + size) +
          ") lies past the argument's " + std::to_string(bytes->size()) + " bytes";
    return false;
  }
  std::uint64_t u = 0;
  std::memcpy(&u, bytes->data() + off, size);  // little-endian hosts and devices
  if (is_signed && size < 8 && (u >> (size * 8 - 1)) & 1) u |= ~std::uint64_t{0} << (size * 8);
  if (!is_signed && u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    err = "overflow (" + what + " = " + std::to_string(u) + " exceeds 64-bit signed integers)";
    return false;
  }
  out = static_cast<std::int64_t>(u);
  return true;
}

bool eval_node(const Expr::Node& n, const Expr::Env& env, std::int64_t& out, std::string& err) {
  std::int64_t a = 0, b = 0;
  switch (n.kind) {
    case Expr::Node::Num:
      out = n.value;
      return true;
    case Expr::Node::Name: {
      std::optional<std::int64_t> v;
      if (env.scalar) v = env.scalar(n.name);
      if (!v) {
        err = "scalar argument '" + n.name + "' is unknown or not set";
        return false;
      }
      out = *v;
      return true;
    }
    case Expr::Node::Builtin: {
      const auto d = static_cast<std::size_t>(n.value);
      std::uint64_t v = 0;
      if (n.name == "global_size")
        v = env.global_size[d];
      else if (n.name == "num_groups")
        v = env.num_groups[d];
      else {
        if (env.local_size[d] == 0) {
          err = "local_size(" + std::to_string(d) + ") is not known: the launch gave no local size";
          return false;
        }
        v = env.local_size[d];
      }
      if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        err = "overflow (" + n.name + "(" + std::to_string(d) + ") = " + std::to_string(v) +
              " exceeds 64-bit signed integers)";
        return false;
      }
      out = static_cast<std::int64_t>(v);
      return true;
    }
    case Expr::Node::Neg:
      return eval_node(*n.a, env, a, err) && apply(n.kind, a, 0, out, err);
    case Expr::Node::Sizeof:
      err = "sizeof(" + n.name + ") is resolved by dl-annotate, which knows the type";
      return false;
    case Expr::Node::Field:
      return eval_field(n, env, out, err);
    case Expr::Node::Whole:
      if (!env.whole) {
        err = "'*' (the records of the whole buffer) is known only from a bound buffer";
        return false;
      }
      out = *env.whole;
      return true;
    default:
      break;
  }
  return eval_node(*n.a, env, a, err) && eval_node(*n.b, env, b, err) &&
         apply(n.kind, a, b, out, err);
}

void collect_names(const Expr::Node& n, std::vector<std::string>& out) {
  if (n.kind == Expr::Node::Name) {
    for (const auto& s : out)
      if (s == n.name) return;
    out.push_back(n.name);
  }
  if (n.a) collect_names(*n.a, out);
  if (n.b) collect_names(*n.b, out);
}

void collect_fields(const Expr::Node& n, std::vector<Expr::FieldRef>& out) {
  if (n.kind == Expr::Node::Field) out.push_back({n.name, n.path, n.value, n.type});
  if (n.kind == Expr::Node::Sizeof) out.push_back({"", n.name, -2, ""});
  if (n.a) collect_fields(*n.a, out);
  if (n.b) collect_fields(*n.b, out);
}

std::string node_cl(const Expr::Node& n, const std::string& whole) {
  static const char* ops = "??? +-*/%";
  switch (n.kind) {
    case Expr::Node::Whole:
      return "(long)(" + whole + ")";
    case Expr::Node::Num:
      return "(long)" + std::to_string(n.value);
    case Expr::Node::Name:
      return "(long)(" + n.name + ")";
    case Expr::Node::Builtin:
      return "(long)get_" + n.name + "(" + std::to_string(n.value) + ")";
    case Expr::Node::Field:
      return "(long)(" + n.name + "." + n.path + ")";
    case Expr::Node::Sizeof:
      return "(long)sizeof(" + n.name + ")";
    case Expr::Node::Neg:
      return "(-" + node_cl(*n.a, whole) + ")";
    default:
      break;
  }
  return "(" + node_cl(*n.a, whole) + " " + ops[n.kind] + " " + node_cl(*n.b, whole) + ")";
}

}  // namespace

Expr::Expr() = default;
Expr::~Expr() = default;
Expr::Expr(const Expr&) = default;
Expr& Expr::operator=(const Expr&) = default;
Expr::Expr(Expr&&) noexcept = default;
Expr& Expr::operator=(Expr&&) noexcept = default;

std::optional<Expr> Expr::parse(std::string_view text, std::string* error, std::size_t* error_pos) {
  // `*` alone: the whole buffer (its size over the record size, at each launch).
  const std::size_t first = text.find_first_not_of(" \t");
  if (first != std::string_view::npos && text[first] == '*' &&
      text.find_first_not_of(" \t", first + 1) == std::string_view::npos) {
    auto n = std::make_shared<Expr::Node>();
    n->kind = Expr::Node::Whole;
    n->begin = first;
    n->end = first + 1;
    Expr e;
    e.text_ = "*";
    e.root_ = std::move(n);
    return e;
  }
  Parser p(text);
  NodeP root = p.parse_all();
  if (!p.ok()) {
    if (error) *error = p.error();
    if (error_pos) *error_pos = p.pos();
    return std::nullopt;
  }
  Expr e;
  e.text_ = std::string(text);
  e.root_ = std::move(root);
  return e;
}

std::optional<std::int64_t> Expr::eval(const Env& env, std::string* error) const {
  if (!root_) {
    if (error) *error = "empty expression";
    return std::nullopt;
  }
  std::int64_t v = 0;
  std::string err;
  if (!eval_node(*root_, env, v, err)) {
    if (error) *error = err + " in '" + text_ + "'";
    return std::nullopt;
  }
  return v;
}

bool Expr::is_constant() const {
  return root_ && root_->constant;
}

std::vector<std::string> Expr::names() const {
  std::vector<std::string> out;
  if (root_) collect_names(*root_, out);
  return out;
}

std::vector<Expr::FieldRef> Expr::fields() const {
  std::vector<FieldRef> out;
  if (root_) collect_fields(*root_, out);
  return out;
}

bool Expr::is_whole() const {
  return root_ && root_->kind == Node::Whole;
}

std::string Expr::to_cl(const std::string& whole) const {
  return root_ ? node_cl(*root_, whole) : "0";
}

}  // namespace dl
