// Internal to backend/: emission of one task (stages, Initialize, space descriptions, flow).
#pragma once

#include "backend/emitter.h"

namespace itc::backend {

struct StageParam {
    std::string cppName;
    std::string global;  // the task-global an array/scalar argument is rooted at
    std::string literal; // bound to a string literal (reduction operator)
    bool isArray = false;
    int dims = 0;
    std::string element;
    int versions = 1;
    // A scalar (or fixed-size field) rooted at a versioned task-global scalar: its older
    // versions come as parameters `<name>_older<k>`, k < olderVersions.
    int olderVersions = 1;
    bool isReductionSlot = false;
    std::string reduceOp, reduceType;
    // Bound to sections of `global` (`m[k][...]`): per parameter dimension, the dimensions of
    // `global` it stands for at the instance's calls (empty: the whole array, same numbering).
    std::vector<std::set<int>> sectionDims;
};

struct StageSig {
    std::string fn;
    std::map<std::string, StageParam> params;
    std::vector<std::string> order;
    // task-global arrays used without being passed (guide: Stages and statements)
    std::set<std::string> directArrays;
};

class TaskEmitter {
public:
    TaskEmitter(const BackendInput& in, const ast::TaskDef& def, const semantic::TaskInfo& info,
                const semantic::TaskPlan& plan, int index);

    // Emits `namespace task_N { ... void run(...) }`.
    void emit(Out& o);
    // The C++ parameter list of run() after (prog, env): initialize values, partition values.
    std::string ns() const { return ns_; }

    const BackendInput& in() const { return in_; }
    // Whether local array `name` of stage `stage` may hold a copy of a part cut by stride() (capability.h,
    // stridedPartHolders): its dimension-range loops visit the held indices.
    bool heldPart(const ast::StageDef& stage, const std::string& name) const {
        const FunctionTable* table = currentFunctions(); // emitProgram's, which walked the program once
        return table && table->heldPart(stage, name);
    }
    bool isGlobal(const std::string& n) const { return globals_.count(n) != 0; }
    const semantic::GlobalInfo& global(const std::string& n) const { return *globals_.at(n); }
    int arrayIndex(const std::string& n) const { return arrayIndex_.at(n); }
    int versionsOf(const std::string& array) const;
    // Task-global scalars keep their older versions (`x at (current - k)`) beside the current
    // one in each flow's Globals: `older<k>_<x>`, aged when the flow enters an Epoch.
    bool versionedScalar(const std::string& name) const;
    static std::string olderScalar(const std::string& name, int lag);
    // The value of Reduction variable `v` this LPU knows, in the Globals object named `globals`.
    std::string scalarRef(const std::string& v, const std::string& globals) const;
    std::string reductionValue(const std::string& v, const std::string& globals) const;
    // A Reduction variable some stage reduces into (`Space X: v`); the others are plain scalars.
    bool reducedInto(const std::string& v) const;
    bool readInFlow(const std::string& v) const; // by a stage, a condition or a Repeat header
    bool namedInInitialize(const std::string& v) const;
    std::string where(SourceRange r) const;
    int lpsOf(const std::string& letter) const;
    // Array dimensions (0-based) split by stride()/block_stride() on the way to the parts the
    // stage being emitted works in: held indices there are not intervals.
    std::set<int> stridedDims(const std::string& array) const;
    std::set<int> stridedDims(const std::string& array, int lps) const; // for the parts of space `lps`
    int stageLps() const { return stageLps_; }

    // The storage space whose parts stages of `lps` work in for `array` (the plan's choice).
    int storageOf(const std::string& array, int lps) const;
    // The plan's turn copy of `array` in space `lps`, or null.
    const semantic::ArrayStorage::TurnCopy* turnCopy(const std::string& array, int lps) const;
    // The dimensions (in the parameter's numbering) of a stage's array parameter that are cut by
    // stride() or block_stride() in the stage's space: a section's dimension counts when any
    // array dimension it stands for is (position loops are right for intervals too).
    std::set<int> stridedDims(const StageParam& p) const;
    // The loop of stage instance `inst` (of space `lps`) that writes version-dependent `array`
    // on a box (epoch_writes.h), when the stage body has exactly one name for it and the parts
    // there are not strided; else nullptr.
    const ast::ParallelLoop* boxWritingLoopOf(const semantic::StageInstance& inst, const std::string& array,
                                              int lps) const;
    // Whether some stage of this task calls the dense kernels (runtime/task/dense_views.h).
    bool callsBlas() const { return callsBlas_; }
    void noteBlasCall() { callsBlas_ = true; }

private:
    void analyse();
    int nodeOf(const ast::FlowPart& f) const;
    static bool isMovement(semantic::SyncKind k);
    bool movesSerialised(const semantic::Type& t) const;
    void emitStage(Out& o, size_t instance);
    // The parameters `<name>_older<k>` of a scalar stage parameter bound to (a field of) a
    // versioned task-global scalar or an element of a versioned array; returns its number of
    // versions (1: none).
    int olderScalarParams(Out& o, const semantic::ParamBinding& b, const std::string& name) const;
    void emitRun(Out& o);
    void emitInitialize(Out& o);
    void emitSpaces(Out& o);
    void emitFlow(Out& o, const ast::FlowList& list, int lps, int x);
    void emitStageCall(Out& o, const ast::StageCall& call, int lps, int x);
    // `lag`: the element in the version `current - lag` (a stage reading `p at (current - lag)`).
    std::string elementArgument(const ast::Expr& e, int lps, const std::function<void(const std::string&)>& views,
                                int lag = 0);
    std::string fieldSectionArgument(Out& o, const ast::Subscript& sub, int lps, const StageParam& sp,
                                     const std::function<void(const std::string&)>& views);
    std::string sectionArgument(Out& o, const ast::Expr& e, int lps, const StageParam& sp,
                                const std::function<void(const std::string&)>& views);
    // The plan's synchronisations: who takes part, their IT_STATS names, their declarations.
    bool participates(int sync, int x) const;
    std::string syncName(int sync) const;
    std::string registration(int sync);
    void emitSyncs(Out& o, const std::vector<int>& syncs, int x);
    void collectReductionOps(const ast::FlowList& list);
    bool relevant(const ast::FlowPart& f, int lps, int x) const;
    bool spaceUses(const ast::FlowList& list, int x, const std::string& v) const;
    bool hasStageOf(const ast::FlowList& list, int x) const;
    size_t instanceIndex(const ast::StageCall& call) const;
    std::string flowParams() const;
    int arrayIndexOrSlot(const std::string& v) const;
    bool scalarReachesRootAtEnd(const std::string& v) const;
    std::string flowExpr(const ast::Expr& e, int lps, const std::string& lpuVar, int lag = 0);

    const BackendInput& in_;
    const ast::TaskDef& def_;
    const semantic::TaskInfo* info_;
    const semantic::TaskPlan& plan_;
    int index_;
    std::string ns_;
    std::map<std::string, const semantic::GlobalInfo*> globals_;
    std::map<std::string, int> arrayIndex_;
    std::map<std::string, int> home_; // array -> its home space (plan.storage)
    std::set<std::string> written_;
    std::map<std::string, int> reductionLps_; // Reduction variable -> its space X
    std::vector<StageSig> sigs_;              // per stage instance
    int stageLps_ = -1;                       // the space of the stage being emitted
    // Flow walk state.
    struct Guard {
        int lps;
        const ast::Condition* cond;
        int foreachParent;  // foreachParent_ where the block is: one outside the foreach tests whole parts
        std::string subVar; // and its turn variable
        std::string held;   // the C++ flag: this block's test and the enclosing ones held at its entry
    };
    std::vector<Guard> guards_;
    void emitGuardEntry(Out& o, Guard& gd, int x);
    void emitGuardTests(Out& o, const std::string& fail = "break;");
    int guardsEmitted_ = 0; // numbers the flags of Where/If blocks
    bool loopSetsVariable(const ast::FlowList& list, int lps, int x, const std::string& variable) const;
    int foreachLps_ = -1;
    int foreachParent_ = -1;     // the space of the `Repeat foreach` being emitted (any flow), or -1
    std::string subVar_ = "sub"; // the C++ variable of its turn
    // The `Repeat foreach` loops around it (nested loops): an LPU skips its stages in a turn
    // beyond its own count at every level.
    struct OuterTurn {
        int lps;         // the loop's space
        std::string var; // its turn variable
    };
    std::vector<OuterTurn> outerTurns_;
    // A space whose stages, here, work in the current sub-partition of the `Repeat foreach`.
    bool turnSpace(int lps) const;
    std::set<std::string> globalsUsedBy(const ast::StageCall& call) const;
    // The call after which an Epoch entry that only rotated `array`'s versions completes the new
    // version (nullptr: the entry copies the whole part).
    const ast::StageCall* rotatingCall(const ast::EpochBlock& epoch, const std::string& array, int lps, int x) const;
    // call -> (array, flag of the LPUs that entered the epoch, or "") to complete after it
    std::map<const ast::StageCall*, std::vector<std::pair<int, std::string>>> completeAfter_;
    int epochsEmitted_ = 0; // numbers the flags of guarded epoch entries
    void emitCompletions(Out& o, const std::vector<std::pair<int, std::string>>& arrays, const std::string& comment);
    int loopCounter_ = 0;
    bool callsBlas_ = false;
    int sectionArgs_ = 0; // names the views of section arguments
    // The plan's synchronisations by flow node and point (plan numbers).
    std::map<const ast::FlowPart*, int> nodeOf_;
    std::map<int, std::vector<int>> syncBefore_, syncAfter_, syncExit_;
    std::vector<int> syncStart_, syncEnd_;
    std::map<std::pair<int, std::string>, int> reductionAt_;          // (call node, variable) -> sync
    std::map<int, std::pair<std::string, std::string>> reductionOps_; // sync -> (op, value type)
    std::set<std::string> movedArrays_, movedScalars_;                // written ones are marked for movements
};

} // namespace itc::backend
