// Single-process tests of the engine's value types: Tuple, Packet, Args and log configuration.
#include "runtime/engine/engine.h"

#include <gtest/gtest.h>

#include <unordered_set>

namespace itrt {
namespace {

TEST(Tuple, EqualityOrderHashAndPrint) {
  Tuple a{1, 2}, b{1, 2}, c{1, 3}, d{1, 2, 0};
  EXPECT_EQ(a, b);
  EXPECT_NE(a, d);
  EXPECT_LT(a, c);
  EXPECT_LT(a, d);  // a prefix sorts first
  EXPECT_LT(d, c);
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_NE(a.hash(), d.hash());
  EXPECT_EQ(a.str(), "(1, 2)");
  EXPECT_EQ(fmt::format("{}", d), "(1, 2, 0)");
  EXPECT_EQ(a.concat({7}), (Tuple{1, 2, 7}));
  std::unordered_set<Tuple> set{a, b, c, d};
  EXPECT_EQ(set.size(), 3u);
}

TEST(Packet, RefCountingAndLifetime) {
  int64_t base = Packet::live();
  {
    PacketRef p = Packet::create(100);
    EXPECT_EQ(p->size(), 100u);
    EXPECT_EQ(p->as<char>()[99], 0);  // zero-initialised
    EXPECT_EQ(p->ref_count(), 1);
    PacketRef q = p;
    PacketRef r = q;
    EXPECT_EQ(p->ref_count(), 3);
    q.reset();
    EXPECT_EQ(p->ref_count(), 2);
    PacketRef moved = std::move(r);
    EXPECT_EQ(p->ref_count(), 2);
    EXPECT_EQ(Packet::live(), base + 1);
  }
  EXPECT_EQ(Packet::live(), base);
  int data[3] = {4, 5, 6};
  PacketRef c = Packet::copy_of(data, sizeof data);
  data[0] = 9;
  EXPECT_EQ(c->as<int>()[0], 4);
  PacketRef v = Packet::view(data, sizeof data);
  EXPECT_EQ(v->data(), static_cast<void*>(data));
  c.reset();
  v.reset();
  EXPECT_EQ(Packet::live(), base);
}

Args make_args(std::vector<std::string> w) { return Args(w); }

TEST(Args, TypedAccessAndLastOccurrenceWins) {
  Args a =
      make_args({"rows=12", "eps=0.5", "f=2.5", "on=TRUE", "off=false", "c=x", "name=in.txt", "rows=-7", "empty="});
  EXPECT_EQ(a.get_int("rows"), -7);
  EXPECT_DOUBLE_EQ(a.get_double("eps"), 0.5);
  EXPECT_FLOAT_EQ(a.get_float("f"), 2.5f);
  EXPECT_TRUE(a.get_bool("on"));
  EXPECT_FALSE(a.get_bool("off"));
  EXPECT_EQ(a.get_char("c"), 'x');
  EXPECT_EQ(a.get_string("name"), "in.txt");
  EXPECT_EQ(a.get_string("empty"), "");
  EXPECT_EQ(a.get<int32_t>("rows"), -7);
  EXPECT_TRUE(a.has("eps"));
  EXPECT_FALSE(a.has("cols"));
  const char* argv[] = {"prog", "n=3", "n=4"};
  EXPECT_EQ(Args(3, argv).get_int("n"), 4);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ArgumentError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Args, ErrorsNameTheKey) {
  Args a = make_args({"rows=abc", "big=99999999999", "x=1.5e", "b=yes", "c=ab", "n=12x"});
  EXPECT_EQ(error_of([&] { a.get_int("rows"); }), "argument 'rows': expected an integer, found 'abc'");
  EXPECT_EQ(error_of([&] { a.get_int("n"); }), "argument 'n': expected an integer, found '12x'");
  EXPECT_EQ(error_of([&] { a.get_int("big"); }), "argument 'big': expected a 32-bit integer, found '99999999999'");
  EXPECT_EQ(error_of([&] { a.get_double("x"); }), "argument 'x': expected a real number, found '1.5e'");
  EXPECT_EQ(error_of([&] { a.get_bool("b"); }), "argument 'b': expected a boolean (TRUE or FALSE), found 'yes'");
  EXPECT_EQ(error_of([&] { a.get_char("c"); }), "argument 'c': expected a single character, found 'ab'");
  EXPECT_EQ(error_of([&] { a.get_int("cols"); }), "argument 'cols': missing; pass cols=<value> on the command line");
  EXPECT_EQ(error_of([] { make_args({"novalue"}); }), "command-line word 'novalue' is not of the form key=value");
  EXPECT_EQ(error_of([] { make_args({"=3"}); }), "command-line word '=3' is not of the form key=value");
}

TEST(Log, LevelsPerSubsystem) {
  log_configure("proxy:debug,engine:error");
  EXPECT_TRUE(log_enabled(LogSystem::proxy, LogLevel::debug));
  EXPECT_FALSE(log_enabled(LogSystem::proxy, LogLevel::trace));
  EXPECT_FALSE(log_enabled(LogSystem::engine, LogLevel::warn));
  EXPECT_TRUE(log_enabled(LogSystem::engine, LogLevel::error));
  EXPECT_TRUE(log_enabled(LogSystem::args, LogLevel::warn));  // default level
  log_configure("info");
  EXPECT_TRUE(log_enabled(LogSystem::reduce, LogLevel::info));
  EXPECT_FALSE(log_enabled(LogSystem::reduce, LogLevel::debug));
  log_configure(nullptr);
  EXPECT_FALSE(log_enabled(LogSystem::engine, LogLevel::info));
}

}  // namespace
}  // namespace itrt
