// Class elements for `itc data`: the program is parsed and checked like `itc check` does, and the
// class's fields (semantic/ClassInfo, declaration order) become a runtime StructCodec. The memory
// layout chosen here is private to itc data: files store fields one after the other without
// padding (§13.2), so any layout the codec agrees with gives the same files as a compiled program.
#include "frontend/parser.h"
#include "semantic/semantic.h"
#include "tools/itc/data_element_type.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <ostream>

namespace itc::data {
namespace {

using semantic::TypeKind;

// A laid-out type: its codec, memory size and alignment, and its leaves relative to its start.
struct Layout {
    const itrt::ElementCodec* codec = nullptr;
    std::size_t size = 0;
    std::size_t align = 1;
    std::vector<Leaf> leaves;
};

std::size_t alignUp(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }

// "[1,2]" for the flat position `k` of a static array with these lengths.
std::string staticIndex(int64_t k, const std::vector<int64_t>& lengths) {
    std::vector<int64_t> idx(lengths.size());
    for (std::size_t d = lengths.size(); d-- > 0;) {
        idx[d] = k % lengths[d];
        k /= lengths[d];
    }
    return fmt::format("[{}]", fmt::join(idx, ","));
}

class ClassLayouts {
public:
    ClassLayouts(const semantic::CheckedProgram& program, std::ostream& err) : program_(program), err_(err) {}

    // Nullopt (with a message) for a field type a data file cannot hold.
    std::optional<Layout> layoutOf(const semantic::Type& t, const std::string& where) {
        auto scalar = [](const itrt::ElementCodec& c, ScalarKind k, std::size_t size) {
            return Layout{&c, size, size, {Leaf{0, k, "", ""}}};
        };
        switch (t.kind) {
        case TypeKind::Integer: return scalar(itrt::integer_codec(), ScalarKind::integer, 4);
        case TypeKind::RealSingle: return scalar(itrt::float_codec(), ScalarKind::real_single, 4);
        case TypeKind::RealDouble: return scalar(itrt::double_codec(), ScalarKind::real_double, 8);
        case TypeKind::Character: return scalar(itrt::char_codec(), ScalarKind::character, 1);
        case TypeKind::Boolean: return scalar(itrt::bool_codec(), ScalarKind::boolean, sizeof(bool));
        case TypeKind::String:
            return Layout{&itrt::string_codec(), sizeof(itrt::FixedString), 1, {Leaf{0, ScalarKind::string, "", ""}}};
        case TypeKind::Range:
            return Layout{&itrt::range_codec(),
                          sizeof(itrt::RangeValue),
                          alignof(itrt::RangeValue),
                          {Leaf{offsetof(itrt::RangeValue, min), ScalarKind::integer, ".min", ""},
                           Leaf{offsetof(itrt::RangeValue, max), ScalarKind::integer, ".max", ""}}};
        case TypeKind::Class: return classLayout(t.name);
        default: break;
        }
        err_ << fmt::format("{}: a field of type `{}` cannot be stored in a data file\n", where, semantic::typeName(t));
        return std::nullopt;
    }

    std::optional<Layout> classLayout(const std::string& name) {
        if (auto done = done_.find(name); done != done_.end())
            return done->second;
        const semantic::ClassInfo& info = program_.classes.at(name);
        std::vector<itrt::StructCodec::Field> fields;
        Layout result;
        std::size_t at = 0;
        for (const semantic::VarInfo& f : info.fields) {
            // A static-array field is `count` consecutive elements of its innermost type.
            semantic::Type element = f.type;
            std::vector<int64_t> lengths;
            while (element.kind == TypeKind::StaticArray) {
                lengths.insert(lengths.end(), element.lengths.begin(), element.lengths.end());
                semantic::Type inner = element.elementType();
                element = inner;
            }
            int64_t count = 1;
            for (int64_t l : lengths)
                count *= l;
            auto inner = layoutOf(element, fmt::format("class `{}`, field `{}`", name, f.name));
            if (!inner)
                return std::nullopt;
            at = alignUp(at, inner->align);
            fields.push_back({at, inner->codec, count});
            for (int64_t k = 0; k < count; ++k) {
                const std::string entry = lengths.empty() ? "" : staticIndex(k, lengths);
                for (const Leaf& l : inner->leaves)
                    result.leaves.push_back(Leaf{at + static_cast<std::size_t>(k) * inner->size + l.offset, l.kind,
                                                 "." + f.name + entry + l.path, "." + f.name});
            }
            at += static_cast<std::size_t>(count) * inner->size;
            result.align = std::max(result.align, inner->align);
        }
        result.size = alignUp(std::max<std::size_t>(at, 1), result.align);
        owned_.push_back(std::make_unique<itrt::StructCodec>(name, result.size, std::move(fields)));
        result.codec = owned_.back().get();
        done_[name] = result;
        return result;
    }

    std::vector<std::unique_ptr<itrt::StructCodec>> takeCodecs() { return std::move(owned_); }

private:
    const semantic::CheckedProgram& program_;
    std::ostream& err_;
    std::map<std::string, Layout> done_; // classes nest without cycles (§3.3), so no recursion guard
    std::vector<std::unique_ptr<itrt::StructCodec>> owned_;
};

} // namespace

std::optional<ElementType> classElementType(const std::string& programPath, const std::string& className,
                                            std::ostream& err) {
    SourceManager sources;
    DiagnosticEngine diags(sources);
    std::string reason;
    std::optional<FileId> file = sources.loadFile(programPath, reason);
    if (!file) {
        err << fmt::format("{}: cannot read: {}\n", programPath, reason);
        return std::nullopt;
    }
    std::unique_ptr<ast::Program> program = parseProgram(*file, sources, diags);
    semantic::CheckedProgram checked;
    if (!diags.hasErrors())
        semantic::checkProgram(*program, sources, diags, checked);
    if (diags.hasErrors()) {
        diags.print(err);
        err << fmt::format("{}: the program has errors; `itc data` needs it to check cleanly to "
                           "read class `{}`\n",
                           programPath, className);
        return std::nullopt;
    }
    if (!checked.classes.count(className)) {
        std::vector<std::string> names;
        for (const auto& [name, info] : checked.classes)
            names.push_back("`" + name + "`");
        err << fmt::format("{}: no class `{}` in the program ({})\n", programPath, className,
                           names.empty() ? std::string("it declares no classes")
                                         : "its classes: " + fmt::format("{}", fmt::join(names, ", ")));
        return std::nullopt;
    }
    ClassLayouts layouts(checked, err);
    std::optional<Layout> layout = layouts.classLayout(className);
    if (!layout)
        return std::nullopt;
    return ElementType(className, *layout->codec, layout->leaves, layouts.takeCodecs());
}

} // namespace itc::data
