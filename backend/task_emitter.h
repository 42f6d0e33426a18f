// Internal to backend/: emission of one task (stages, Initialize, space descriptions, flow).
#pragma once

#include "backend/emitter.h"

namespace itc::backend {

struct StageParam {
    std::string cppName;
    std::string global;   // the task-global an array/scalar argument is rooted at
    std::string literal;  // bound to a string literal (reduction operator)
    bool isArray = false;
    int dims = 0;
    std::string element;
    int versions = 1;
    bool isReductionSlot = false;
    std::string reduceOp, reduceType;
};

struct StageSig {
    std::string fn;
    std::map<std::string, StageParam> params;
    std::vector<std::string> order;
    std::set<std::string> directArrays; // task-global arrays used without being passed
};

class TaskEmitter {
public:
    TaskEmitter(const BackendInput& in, const ast::TaskDef& def, const sema::TaskInfo& info,
                const semantic::TaskPlan& plan, int index);

    // Emits `namespace task_N { ... void run(...) }`.
    void emit(Out& o);
    // The C++ parameter list of run() after (prog, env): initialize values, partition values.
    std::string ns() const { return ns_; }

    const BackendInput& in() const { return in_; }
    bool isGlobal(const std::string& n) const { return globals_.count(n) != 0; }
    const sema::GlobalInfo& global(const std::string& n) const { return *globals_.at(n); }
    int arrayIndex(const std::string& n) const { return arrayIndex_.at(n); }
    int versionsOf(const std::string& array) const;
    // The value of Reduction variable `v` this LPU knows, in the Globals object named `globals`.
    std::string reductionValue(const std::string& v, const std::string& globals) const;
    std::string where(SourceRange r) const;
    int lpsOf(const std::string& letter) const;
    // Array dimensions (0-based) split by stride()/block_stride() on the way to the array's
    // home space: held indices there are not intervals.
    std::set<int> stridedDims(const std::string& array) const;

private:
    void analyse();
    void emitStage(Out& o, size_t instance);
    void emitRun(Out& o);
    void emitInitialize(Out& o);
    void emitSpaces(Out& o);
    void emitFlow(Out& o, const ast::FlowList& list, int lps, int x);
    void emitStageCall(Out& o, const ast::StageCall& call, int lps, int x);
    // Synchronisations of the flow, numbered in walk order.
    void planSyncs(const ast::FlowList& list, int lps, bool inForeach);
    void planReaders();
    bool relevant(const ast::FlowPart& f, int lps, int x) const;
    size_t instanceIndex(const ast::StageCall& call) const;
    std::set<std::string> reductionsReadBy(const ast::Expr* e, int lps);
    std::string flowParams() const;
    int arrayIndexOrSlot(const std::string& v) const;
    std::string flowExpr(const ast::Expr& e, int lps, const std::string& lpuVar);

    const BackendInput& in_;
    const ast::TaskDef& def_;
    const sema::TaskInfo* info_;
    const semantic::TaskPlan& plan_;
    int index_;
    std::string ns_;
    std::map<std::string, const sema::GlobalInfo*> globals_;
    std::map<std::string, int> arrayIndex_;
    std::map<std::string, int> home_;          // array -> LPS whose stages use it
    std::set<std::string> written_;
    std::map<std::string, int> reductionLps_;  // Reduction variable -> its space X
    std::vector<StageSig> sigs_;               // per stage instance
    // Flow walk state.
    struct Guard {
        int lps;
        const ast::Condition* cond;
    };
    std::vector<Guard> guards_;
    int foreachLps_ = -1;
    int loopCounter_ = 0;
    struct SyncPlan {
        int id = 0;
        bool reduction = false;
        int home = -1;               // padding: the array's home space (whose LPUs exchange)
        int invoking = -1, target = -1;
        std::string var, op, type;   // reduction
        std::set<int> readers;       // spaces below the target that receive the result
        std::string registration;    // the run() line declaring it
    };
    std::vector<SyncPlan> syncs_;
    std::map<const ast::SpaceBlock*, std::vector<int>> paddingAt_;
    struct Boundary {
        int parent, child;  // spaces
        int entry, exit;    // token syncs
    };
    std::map<const ast::SpaceBlock*, Boundary> boundaryAt_;
    std::map<std::string, std::set<int>> shared_;  // arrays used by stages of several spaces
    std::map<std::pair<const ast::StageCall*, size_t>, int> reductionAt_;
    std::map<const ast::StageCall*, int> callLps_;
    std::map<std::string, std::set<int>> stageReads_;  // Reduction variable -> spaces reading it
    std::set<std::string> conditionReads_;             // Reduction variables flow conditions read
    std::set<std::string>* recording_ = nullptr;
};

} // namespace itc::backend
