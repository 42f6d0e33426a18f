// `itc data`: make, show, convert and compare IT data files (§13) with the runtime's own readers
// and writers (runtime/data/io), so what it accepts is exactly what compiled programs accept.
#include "tools/itc/command.h"
#include "tools/itc/data_commands.h"

using namespace itc::driver;

namespace {

constexpr const char* kUsage =
    R"(usage: itc data make -o FILE --shape SHAPE [--lengths L] (--type T | --program P --class C)
                     [--kind K] [--seed S] [--lo L] [--hi H] [--value V] [--coef A[,B]]
       itc data show FILE [--type T | --program P --class C] [--count N]
       itc data convert IN OUT (--type T | --program P --class C)
       itc data compare A B (--type T | --program P --class C) [--tolerance X]

Makes, summarises, converts and compares data files (`.txt` text, `.bin` binary; the extension
decides). Data files record their collection type and shape but not their element type, so
reading elements needs the type:
  --type T          int, float, double, char, bool, string or range
  --program P.it --class C
                    elements of class C of the IT program P (fields in declaration order)

make: writes FILE (through a temporary file and a rename).
  --shape SHAPE     100 | 64x64 | 2x3x4  an Array
                    list:N               a List of N elements
                    lists:RxC            an Array of Lists; --lengths gives the list lengths:
                                         one per list (1,2,3,...) or one for all (4)
                    arrays:N             a List of N Arrays; --lengths gives their lengths:
                                         one per array (2x3,4x3,...) or one for all (2x3)
  --kind K          uniform   random in [lo, hi) (integral types: lo ... hi)     (default)
                    constant  every element is V
                    flat      V + A*k, k the position in the file (items in order)
                    linear    V + A*i + B*j, (i, j) the element's index in its array or list
                    identity  the identity matrix (2d arrays)
                    diagdom   uniform plus n*max(|lo|,|hi|)+1 on the diagonal (square 2d)
                    spd       M*M^T/n + I, M uniform: symmetric positive definite (square 2d)
  --seed S          the random stream (SplitMix64; the same file on every platform), default 1
  --lo L --hi H     default 0 and 1 ('a' and 'z' for char: a character, A or 'A', stands for
                    its code; bool is always a fair coin, and any nonzero value is true)
  --value V         default 0;  --coef A[,B]  default 1,0
  A class's fields are made one after the other, each like an array of its own. A String is a
  word of 1 to 8 letters a...z under uniform, else the text of the Integer the kind gives. For
  int, float and double Arrays and Lists the file is the one the test tool
  tests/reference/make_input writes for the same options.

show: the collection type, encoding, shape (and the lengths of nested arrays or lists), the
  element type, the first N elements (--count, default 10) and min / max / mean of every
  numeric field. Without a type only the layout is shown.

convert: reads IN and writes OUT in the encoding of OUT's extension (text <-> binary).

compare: A and B must have the same collection type and shape, and every numeric value a of A
  must be within X * max(1, |b|) of the value b of B (--tolerance, default 0: exactly equal;
  NaN equals NaN). Strings compare exactly. On a difference prints the first differing position
  (as `[i,j]`, `array k [i,j]` or `list [i,j] [k]`, plus the field for classes), both values
  and how many elements differ.

Exit status: 0 ok (compare: equal), 1 a bad or unreadable file (compare: the files differ),
2 bad command line (compare: also a file that cannot be read).
)";

int run(const std::vector<std::string>& args) {
    if (args.empty())
        return usageError("data", "expected a subcommand: make, show, convert or compare");
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const std::string& sub = args.front();
    if (sub == "make")
        return itc::data::runMake(rest);
    if (sub == "show")
        return itc::data::runShow(rest);
    if (sub == "convert")
        return itc::data::runConvert(rest);
    if (sub == "compare")
        return itc::data::runCompare(rest);
    return usageError("data", "unknown subcommand `" + sub + "` (make, show, convert, compare)");
}

const ItcCommand command("data", "make, show, convert and compare data files", kUsage, run);

} // namespace
