// Pass: data usage of one task's flow. For every stage invocation (and every Repeat header and
// Where/If condition of the flow) it records the LPS it runs in and the task-globals it reads,
// writes and reduces: stage parameters are mapped to the call's arguments (guide: Stages and
// statements) and task-globals used directly are included. Array
// accesses carry constant offsets per dimension where the subscript is a parallel-loop index plus
// or minus a constant (a stencil's `plate[i-1][j]`), and reads carry the epoch lags used (`at
// (current - n)`, guide: Epochs). Native code (`@Extern`) reads and writes every tracked name it
// mentions; arguments bound to a function's `&` parameters are written. It reports nothing and
// never fails: unresolvable names are simply not task-global uses.
#pragma once

#include "frontend/ast/ast.h"
#include "semantic/partition/lps_tree.h"
#include "semantic/usage/flow_tree.h"
#include "semantic/usage/task_globals.h"

#include <map>
#include <string>
#include <vector>

namespace itc::semantic {

// How one array dimension is indexed: `aligned` when every subscript is a parallel-loop index
// plus a constant in [minOffset, maxOffset]; otherwise any index of the held part may be touched.
struct DimAccess {
    bool aligned = true;
    int minOffset = 0;
    int maxOffset = 0;
    void merge(const DimAccess& o);
    std::string text() const; // `0`, `-1..+1`, `*`
};

extern const char* const kArgumentIndex;

// A parallel-loop index around a write: `for i, j in m` binds index k of `indices` to dimension
// k of `array` (`indices` 0: the loop names the dimension, `for i in m.dimension2`). When that
// dimension is partitioned, the loop runs over different indices in different LPUs.
struct LoopBinding {
    std::string array; // the task-global (a stage parameter before the call maps it)
    int dim = 0;       // 0-based
    int indices = 1;
    friend bool operator==(const LoopBinding&, const LoopBinding&) = default;
};

// A subscript by the index of a sequential loop over the *whole* range of an array's dimension,
// `part[q]` in `do in sequence { ... } for q in part.dimension1.range` (not `.local`), with no
// condition on `q` around it: in a space that cuts that dimension, an LPU reaches elements it
// does not hold.
struct WholeRangeSubscript {
    int dim = 0;           // the subscripted dimension, 0-based
    std::string written;   // the subscripted name as the body writes it
    std::string index;     // the loop index
    std::string loopArray; // the array whose range the loop runs over (a task-global once mapped)
    std::string loopArrayWritten;
    int loopDim = 0; // 0-based
    SourceRange at;  // the subscript
};

struct VarAccess {
    std::string var; // the task-global
    std::string via; // the stage parameter it is bound to; empty for direct use;
                     // kArgumentIndex when only read in an argument's subscript
    bool read = false;
    bool written = false;
    bool reduced = false; // target of a cross-LPU reduction (`Space X: v`)
    int reductionLps = kNoLps;
    std::string reductionOp;
    std::vector<DimAccess> readDims, writeDims; // arrays only, one per array dimension
    std::vector<LoopBinding> writeLoops;        // parallel loops around the writes
    std::vector<WholeRangeSubscript> wholeRange;
    int maxLag = 0; // the largest `at (current - n)` on reads
    // Written only because the stage is inside an Epoch, which shifts the array's versions
    // (`itc plan` says "ages" instead of "writes").
    bool agedOnly = false;
    // `offsets` text of the reads, e.g. `[-1..+1][-1..+1]`; empty when every dimension is 0.
    std::string readOffsetsText() const;
};

struct FlowAccess {
    enum class Kind { Stage, RepeatHeader, Condition };
    Kind kind = Kind::Stage;
    int node = -1;      // the flow node
    int lps = kRootLps; // its context space
    std::string stage;  // Kind::Stage: the stage's name
    std::vector<VarAccess> vars;
    bool guarded = false; // inside a Where/If: may not run in every LPU
    bool inEpoch = false;
    bool inForeach = false; // inside `Repeat foreach sub-partition`
    SourceRange range;
    const VarAccess* find(const std::string& var) const;
};

struct DataUsage {
    std::vector<FlowAccess> accesses;        // in flow (pre-)order
    std::map<int, int> accessOfNode;         // flow node -> index into accesses
    std::map<std::string, int> versionDepth; // version-dependent structure -> N+1 (guide: Epochs)
};

// `functions`: the program's functions (their `&` parameters write the arguments), or null.
DataUsage analyzeDataUsage(const ast::TaskDef& task, const TaskGlobals& globals, const LpsTree& lps,
                           const FlowTree& flow, const std::vector<ast::FunctionDef>* functions = nullptr);

} // namespace itc::semantic
