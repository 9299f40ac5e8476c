// Owners of temporary names (lib/srcc/core/process_tag.cpp): this place's tag, names parsed
// back to their owner, an entry removable only when its process is certainly gone, and the
// hash that names contents.
#include "srcc/core/process_tag.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>

namespace srcc {
namespace {

TEST(ProcessTag, TagsParseAndOnlyGoneProcessesLoseTheirEntries) {
  const std::string& tag = process_tag();
  ASSERT_EQ(tag.size(), 16u);
  for (char c : tag) EXPECT_TRUE(std::isxdigit(static_cast<unsigned char>(c))) << tag;
  EXPECT_EQ(&process_tag(), &tag) << "computed once";
  Owner o;
  ASSERT_TRUE(parse_owner(tag + "-" + std::to_string(::getpid()) + "-rest", o));
  EXPECT_EQ(o.tag, tag);
  EXPECT_EQ(o.pid, ::getpid());
  EXPECT_FALSE(owner_is_gone(o)) << "this process";
  EXPECT_FALSE(parse_owner("no-tag-here", o));
  // A child that has exited and been reaped is gone; another place's entry is never ours.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0);
  EXPECT_TRUE(owner_is_gone(Owner{tag, child}));
  EXPECT_FALSE(owner_is_gone(Owner{"0123456789abcdef" == tag ? "fedcba9876543210" : "0123456789abcdef", child}));
}

TEST(ProcessTag, HashIsFnv1a) {
  EXPECT_EQ(hash_hex(""), "cbf29ce484222325");  // the FNV-1a offset basis
  EXPECT_EQ(hash_hex("a"), "af63dc4c8601ec8c");
  EXPECT_NE(hash_hex("ab"), hash_hex("ba"));
  // Fed in pieces: the hash of the whole (a train's fingerprint hashes its sites one by one).
  ContentHash h;
  for (std::string_view piece : {"srcc ", "", "finger", "print"}) h.add(piece);
  EXPECT_EQ(h.hex(), hash_hex("srcc fingerprint"));
  EXPECT_NE(h.hex(), hash_hex("srcc fingerprin"));
}

}  // namespace
}  // namespace srcc
