// Dimension expressions of //DL: annotations: a small recursive-descent parser and
// an evaluator over 64-bit integers.
#include <cctype>
#include <cstring>
#include <limits>

#include "dl/annotation.hpp"

namespace dl {

struct Expr::Node {
  enum Kind { Num, Name, Builtin, Neg, Add, Sub, Mul, Div, Mod } kind = Num;
  std::int64_t value = 0;  // Num; dimension for Builtin
  std::string name;        // Name; builtin name for Builtin
  std::shared_ptr<const Node> a, b;
};

namespace {

using NodeP = std::shared_ptr<const Expr::Node>;

class Parser {
 public:
  explicit Parser(std::string_view t) : t_(t) {}

  NodeP parse_all() {
    NodeP n = sum();
    skip();
    if (ok() && i_ != t_.size()) fail("unexpected '" + std::string(1, t_[i_]) + "'");
    return ok() ? n : nullptr;
  }
  bool ok() const { return err_.empty(); }
  const std::string& error() const { return err_; }
  std::size_t pos() const { return err_pos_; }

 private:
  void skip() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  void fail(std::string m) {
    if (err_.empty()) err_ = std::move(m), err_pos_ = i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < t_.size() && t_[i_] == c) return ++i_, true;
    return false;
  }
  static NodeP make(Expr::Node::Kind k, NodeP a, NodeP b) {
    auto n = std::make_shared<Expr::Node>();
    n->kind = k;
    n->a = std::move(a);
    n->b = std::move(b);
    return n;
  }
  NodeP sum() {
    NodeP l = product();
    while (ok()) {
      if (eat('+'))
        l = make(Expr::Node::Add, l, product());
      else if (eat('-'))
        l = make(Expr::Node::Sub, l, product());
      else
        break;
    }
    return l;
  }
  NodeP product() {
    NodeP l = unary();
    while (ok()) {
      if (eat('*'))
        l = make(Expr::Node::Mul, l, unary());
      else if (eat('/'))
        l = make(Expr::Node::Div, l, unary());
      else if (eat('%'))
        l = make(Expr::Node::Mod, l, unary());
      else
        break;
    }
    return l;
  }
  NodeP unary() {
    if (eat('-')) return make(Expr::Node::Neg, unary(), nullptr);
    if (eat('+')) return unary();
    return primary();
  }
  NodeP primary() {
    skip();
    if (!ok()) return nullptr;
    if (i_ >= t_.size()) {
      fail("expression ends too early");
      return nullptr;
    }
    if (eat('(')) {
      NodeP n = sum();
      if (!eat(')')) fail("expected ')'");
      return n;
    }
    char c = t_[i_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t s = i_;
      std::uint64_t v = 0;
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) {
        std::uint64_t d = static_cast<std::uint64_t>(t_[i_] - '0');
        if (v > (static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) - d) / 10) {
          i_ = s;
          fail("integer literal too large");
          return nullptr;
        }
        v = v * 10 + d;
        ++i_;
      }
      while (i_ < t_.size() && std::strchr("uUlL", t_[i_]) && t_[i_] != '\0') ++i_;  // 10u, 4UL
      auto n = std::make_shared<Expr::Node>();
      n->kind = Expr::Node::Num;
      n->value = static_cast<std::int64_t>(v);
      return n;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t s = i_;
      while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_'))
        ++i_;
      std::string id(t_.substr(s, i_ - s));
      auto n = std::make_shared<Expr::Node>();
      if (id == "global_size" || id == "local_size" || id == "num_groups" ||
          id == "get_global_size" || id == "get_local_size" || id == "get_num_groups") {
        if (id.rfind("get_", 0) == 0) id = id.substr(4);
        if (!eat('(')) {
          fail("expected '(' after " + id);
          return nullptr;
        }
        skip();
        if (i_ >= t_.size() || t_[i_] < '0' || t_[i_] > '2') {
          fail(id + "() takes a dimension 0, 1 or 2");
          return nullptr;
        }
        n->kind = Expr::Node::Builtin;
        n->name = id;
        n->value = t_[i_++] - '0';
        if (!eat(')')) fail("expected ')'");
        return n;
      }
      n->kind = Expr::Node::Name;
      n->name = id;
      return n;
    }
    fail("unexpected '" + std::string(1, c) + "'");
    return nullptr;
  }

  std::string_view t_;
  std::size_t i_ = 0;
  std::string err_;
  std::size_t err_pos_ = 0;
};

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
      auto d = static_cast<std::size_t>(n.value);
      if (n.name == "global_size")
        out = static_cast<std::int64_t>(env.global_size[d]);
      else if (n.name == "num_groups")
        out = static_cast<std::int64_t>(env.num_groups[d]);
      else {
        if (env.local_size[d] == 0) {
          err = "local_size(" + std::to_string(d) + ") is not known: the launch gave no local size";
          return false;
        }
        out = static_cast<std::int64_t>(env.local_size[d]);
      }
      return true;
    }
    case Expr::Node::Neg:
      if (!eval_node(*n.a, env, a, err)) return false;
      out = -a;
      return true;
    default:
      break;
  }
  if (!eval_node(*n.a, env, a, err) || !eval_node(*n.b, env, b, err)) return false;
  switch (n.kind) {
    case Expr::Node::Add:
      out = a + b;
      return true;
    case Expr::Node::Sub:
      out = a - b;
      return true;
    case Expr::Node::Mul:
      out = a * b;
      return true;
    case Expr::Node::Div:
    case Expr::Node::Mod:
      if (b == 0) {
        err = "division by zero";
        return false;
      }
      out = n.kind == Expr::Node::Div ? a / b : a % b;
      return true;
    default:
      return false;
  }
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

std::string node_cl(const Expr::Node& n) {
  static const char* ops = "??? +-*/%";
  switch (n.kind) {
    case Expr::Node::Num:
      return "(long)" + std::to_string(n.value);
    case Expr::Node::Name:
      return "(long)(" + n.name + ")";
    case Expr::Node::Builtin:
      return "(long)get_" + n.name + "(" + std::to_string(n.value) + ")";
    case Expr::Node::Neg:
      return "(-" + node_cl(*n.a) + ")";
    default:
      break;
  }
  return "(" + node_cl(*n.a) + " " + ops[n.kind] + " " + node_cl(*n.b) + ")";
}

}  // namespace

Expr::Expr() = default;
Expr::~Expr() = default;
Expr::Expr(const Expr&) = default;
Expr& Expr::operator=(const Expr&) = default;
Expr::Expr(Expr&&) noexcept = default;
Expr& Expr::operator=(Expr&&) noexcept = default;

std::optional<Expr> Expr::parse(std::string_view text, std::string* error, std::size_t* error_pos) {
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

std::vector<std::string> Expr::names() const {
  std::vector<std::string> out;
  if (root_) collect_names(*root_, out);
  return out;
}

std::string Expr::to_cl() const {
  return root_ ? node_cl(*root_) : "0";
}

}  // namespace dl
